//! What every game's observation is written with: the numbers as the Python RL encoders
//! store them (`spieltisch/rl/encode/base.py`), so the native observation is the same array.

/// `numerator / denominator` as the Python encoders store it: Python's true division (a
/// float64 quotient), rounded to float32 when written into the observation.
#[inline]
pub fn ratio(numerator: impl Into<f64>, denominator: impl Into<f64>) -> f32 {
    (numerator.into() / denominator.into()) as f32
}
