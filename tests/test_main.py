"""The main job, ``python -m skstruct``, on both of its data sources."""

import io
import zipfile

from skstruct.__main__ import main
from skstruct.datasets import _sources


def test_main_job_falls_back_to_synthetic_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SKSTRUCT_DATA", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["--max-iter", "2"]) == 0
    out = capsys.readouterr().out
    assert "Data: synthetic HMM sequences" in out
    assert f"not found in {tmp_path / 'conll2000' / 'train.txt'}" in out
    assert "download_if_missing" not in out  # the library's hint, not the command's
    assert "or pass --download." in out  # right here: no download was asked for
    assert "Test token accuracy:" in out and "span F1" not in out


def test_failed_download_is_an_error_not_a_fallback(
    isolated, tmp_path, closed_url, monkeypatch, capsys
):
    for subset in ("train", "test"):
        monkeypatch.setitem(_sources.URLS["conll2000"], subset, closed_url)
    assert main(["--download", "--data-home", str(tmp_path / "dl"), "--max-iter", "1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no training on other data
    assert captured.err.startswith("python -m skstruct: error: --download failed: conll2000")
    assert closed_url in captured.err and "refused" in captured.err.lower()
    assert "--download" not in captured.err.split("failed:", 1)[1]  # no advice to do it again


def test_download_then_train(isolated, tmp_path, http_server, monkeypatch, capsys):
    base, root = http_server
    sentence = "He PRP B-NP\nsat VBD B-VP\n. . O\n\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("conll2000/train.txt", sentence * 20)
        archive.writestr("conll2000/test.txt", sentence * 5)
    (root / "conll2000.zip").write_bytes(buffer.getvalue())
    for subset in ("train", "test"):
        monkeypatch.setitem(_sources.URLS["conll2000"], subset, f"{base}/conll2000.zip")
    assert main(["--download", "--data-home", str(tmp_path / "dl"), "--max-iter", "2"]) == 0
    out = capsys.readouterr().out
    assert f"Data: CoNLL-2000 chunking from {tmp_path / 'dl' / 'conll2000' / 'train.txt'}" in out
    assert "Test span F1 (conlleval): 100.00" in out


def test_main_job_uses_conll2000_when_present(corpus, capsys):
    data_home = corpus("conll2000").parent
    assert main(["--data-home", str(data_home), "--max-iter", "2"]) == 0
    out = capsys.readouterr().out
    assert "Data: CoNLL-2000 chunking" in out
    f1 = float(out.split("Test span F1 (conlleval):")[1].split()[0])
    assert f1 > 85.0
