"""The string fields of request bodies: each is checked as any text that enters the server
(:func:`~spieltisch.web.common.text.check_text`) when pydantic reads the body."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from spieltisch.web.common.text import check_text

Field = Annotated[str, AfterValidator(check_text)]
"""A string field of a request."""
