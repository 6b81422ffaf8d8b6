"""JSON pointers (RFC 6901 section 3-4) written and read in one place (validator.pointer):
every reader of a file's positions and every writer of a pointer agree on the escapes."""

from __future__ import annotations

import pytest

from validator import pointer
from validator.model.submission.pointers import split_pointer


@pytest.mark.parametrize("key", ["pair_plus", "a/b", "~x", "~1", "a~/b/~0", "", "¹"])
def test_a_key_escaped_then_unescaped_is_the_key(key: str) -> None:
    assert pointer.unescape(pointer.escape(key)) == key
    assert pointer.parts(pointer.join("/paytables", key)) == ["paytables", key]


def test_rfc_6901_escapes_tilde_before_slash() -> None:
    """RFC 6901 section 4: '~01' is the key '~1', never '/'."""
    assert pointer.escape("~1") == "~01"
    assert pointer.unescape("~01") == "~1"
    assert pointer.escape("a/b") == "a~1b"


def test_a_path_of_keys_and_indices_as_a_pointer() -> None:
    assert pointer.of([]) == ""
    assert pointer.of(["wagers", 0, "a/b"]) == "/wagers/0/a~1b"
    assert pointer.parts("") == []
    assert pointer.parts("/") == [""]


def test_the_submission_reader_splits_as_the_one_module_does() -> None:
    assert split_pointer("/custom_paytables/a~1b/0") == ["custom_paytables", "a/b", "0"]
    assert split_pointer("/") == split_pointer("") == []


def test_a_diff_names_an_escaped_key_as_written_never_as_its_escape() -> None:
    """Documents speak to people: a key holding '/' is printed with its '/', not '~1'."""
    from validator.diff.names import field_name

    assert "~1" not in field_name(None, "/custom_paytables/a~1b")
    assert field_name(None, "/custom_paytables/a~1b") == "A/b stated paytable"
