"""The suite's data lives in tests/data: a missing file fails its test by name (issue 26)."""

import pytest

from tests.conftest import DATA, data_files


def test_the_corpus_is_parametrised_from_the_repository():
    files = data_files("corpus/mat", "*.mat")
    assert len(files) == 34 and all(path.is_relative_to(DATA) for path in files)


def test_a_missing_data_folder_fails_its_test_naming_the_path():
    [path] = data_files("no-such-folder", "*.mat")
    with pytest.raises(FileNotFoundError, match="no-such-folder"):
        path.read_bytes()
