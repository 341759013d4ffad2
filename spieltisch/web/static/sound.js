// Sound, off by default: a dice rattle, a card laid down and the chime of one's turn, each
// synthesized with WebAudio (no audio file is loaded). One switch (a labelled toggle in a table
// page's header) turns it on; the choice is kept in this browser. Browsers let a page's audio
// start only after a gesture: the switch's click is that gesture, and a page opened with sound
// on starts its audio at the first click or key anywhere on it.
//
//   import { sound } from "./sound.js";  sound.play("dice" | "card" | "turn");
import { el } from "./common.js";
import { t } from "./i18n.js";

const KEY = "spieltisch.sound";  // the key the turn's beep was kept under before
const VOLUME = 0.22;
let context = null;
let master = null;
let noise = null;

export function enabled() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

function keep(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // private mode: on for this page only
  }
}

// The audio graph, made on a gesture: a context, a master gain, and a second of white noise
// that the rattle and the card's swish filter.
function wake() {
  if (!enabled() || !("AudioContext" in window)) return null;
  try {
    if (!context) {
      context = new AudioContext();
      master = context.createGain();
      master.gain.value = VOLUME;
      master.connect(context.destination);
      noise = context.createBuffer(1, context.sampleRate, context.sampleRate);
      const data = noise.getChannelData(0);
      for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
    }
    if (context.state === "suspended") context.resume();
    return context;
  } catch {
    return null;
  }
}

// A burst of filtered noise: ``at`` seconds from now, ``length`` long, through a band-pass
// around ``pitch`` (gliding to ``glide``, if given), at ``level``.
function burst(at, length, pitch, level, glide = pitch) {
  const source = context.createBufferSource();
  source.buffer = noise;
  const band = context.createBiquadFilter();
  band.type = "bandpass";
  band.Q.value = 1.4;
  band.frequency.setValueAtTime(pitch, at);
  band.frequency.exponentialRampToValueAtTime(glide, at + length);
  const gain = context.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + Math.min(0.006, length / 4));
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(band).connect(gain).connect(master);
  source.start(at, Math.random() * 0.5, length + 0.02);
}

// A struck tone: a sine and its octave, fading out.
function tone(at, frequency, length, level) {
  for (const [ratio, share] of [[1, 1], [2, 0.25]]) {
    const oscillator = context.createOscillator();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency * ratio;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level * share, at + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(master);
    oscillator.start(at);
    oscillator.stop(at + length + 0.05);
  }
}

const SOUNDS = {
  // Dice rattling in a cup and landing: a few quick clicks, irregular, then two louder knocks.
  dice(now) {
    for (let i = 0; i < 7; i += 1) burst(now + i * 0.032 + Math.random() * 0.018, 0.03, 2400 + Math.random() * 2200, 0.5);
    burst(now + 0.27, 0.05, 1300, 0.9);
    burst(now + 0.34 + Math.random() * 0.03, 0.045, 1700, 0.6);
  },
  // A card laid on the felt: a short swish that falls in pitch, and a soft tap.
  card(now) {
    burst(now, 0.11, 5200, 0.55, 1600);
    burst(now + 0.09, 0.04, 900, 0.5);
  },
  // One's turn: two bright notes, a fourth apart.
  turn(now) {
    tone(now, 659.25, 0.45, 0.5);
    tone(now + 0.14, 880, 0.7, 0.45);
  },
};

// Play a sound by name, if sound is on (and the browser lets the page play it); never throws.
export function play(name) {
  if (!SOUNDS[name] || !wake()) return;
  try {
    SOUNDS[name](context.currentTime + 0.01);
  } catch {
    // no sound here: the page says everything in words and pictures too
  }
}

// The switch: a labelled toggle (input.toggle) for a header; turning it on plays the chime,
// so that one hears what it does.
export function soundSwitch() {
  const box = el("input", { type: "checkbox", class: "toggle", id: "sound-toggle", checked: enabled(),
    on: { change: (event) => {
      keep(event.target.checked);
      if (event.target.checked) play("turn");
    } } });
  return el("label", { class: "chip sound", for: "sound-toggle" }, el("span", { "data-t": "Sound" }, t("Sound")), box);
}

// A page opened with sound on: its audio starts at the person's first click or key.
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { if (enabled()) wake(); }, { once: true, capture: true });
}

export const sound = { play, enabled, soundSwitch };
export default sound;
