"""Every part of a Rules Submission is read strictly, so that nothing written is
guessed at."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Part(BaseModel):
    """Strict: a wrong type is an error, never coerced; an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
