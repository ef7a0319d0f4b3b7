"""Downloads of NLTK's data packages, and the test suite's own corpus lookup.

The packages are zip archives built here in NLTK's layout and served on 127.0.0.1
(the ``http_server`` fixture); no test talks to anything else. Tests marked ``data``
rebuild a package from a slice of a real corpus and check that converting it back
gives the same file.
"""

import io
import zipfile

import pytest

from skstruct.datasets import (
    _sources,
    fetch_brown,
    fetch_conll2000,
    fetch_conll2002,
    fetch_conll2007,
    fetch_ptb_sample,
    fetch_treebank,
    fetch_ud,
)
from tests import conftest

# ---------------------------------------------------------------- helpers


def serve_zip(http_server, name, members):
    """Serve a zip of ``members`` ({member name: str or bytes}); return its URL."""
    base, root = http_server
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in members.items():
            archive.writestr(member, content.encode() if isinstance(content, str) else content)
    (root / name).write_bytes(buffer.getvalue())
    return f"{base}/{name}"


def use_url(monkeypatch, folder, url):
    """Every subset of ``folder`` downloads from ``url`` only."""
    for subset in _sources.FILES[folder]:
        monkeypatch.setitem(_sources.URLS[folder], subset, url)


def listing(folder):
    return sorted(path.name for path in folder.iterdir())


# A Brown file: tab-indented sentences, blank lines between them, the tag after the last "/".
BROWN_CA01 = "\n\n\tThe/at Fulton/np-tl jury/nn ./.\n\n\n\tIt/pps said/vbd 1/2/cd ./.\n\n"
BROWN_CB01 = "\n\n\tOnly/ap one/cd ./.\n"
BROWN_TSV = (
    "The\tat\nFulton\tnp-tl\njury\tnn\n.\t.\n\n"
    "It\tpps\nsaid\tvbd\n1/2\tcd\n.\t.\n\n"
    "Only\tap\none\tcd\n.\t.\n\n"
)
# Malt-TAB files of NLTK's dependency_treebank: word tag head [label].
WSJ = {
    "dependency_treebank/wsj_0001.dp": (
        "Pierre\tNNP\t2\nsmiled\tVBD\t0\n\nHe\tPRP\t2\nsat\tVBD\t0\n"
    ),
    "dependency_treebank/wsj_0160.dp": "Ms.\tNNP\t2\tNMOD\nHaag\tNNP\t0\tROOT\n\n\n",
    "dependency_treebank/wsj_0180.dp": "Go\tVB\t0\n",
    "dependency_treebank/wsj_0200.dp": "Outside\tIN\t0\n",  # past the sample's files
}


# ---------------------------------------------------------------- NLTK packages


def test_fetch_brown_converts_the_nltk_package(isolated, tmp_path, http_server, monkeypatch):
    members = {
        "brown/cb01": BROWN_CB01,
        "brown/ca01": BROWN_CA01,  # out of order in the archive: files are read sorted
        "brown/README": "BROWN CORPUS\n",
        "brown/cats.txt": "ca01 news\n",
        "brown/CONTENTS": "ca01 Political reportage\n",
    }
    use_url(monkeypatch, "brown", serve_zip(http_server, "brown.zip", members))

    bunch = fetch_brown(data_home=tmp_path / "dl")

    folder = tmp_path / "dl" / "brown"
    assert bunch.filename == str(folder / "brown.tsv")
    assert (folder / "brown.tsv").read_text(encoding="utf-8") == BROWN_TSV
    assert listing(folder) == ["brown.tsv"]  # no temporary file left
    assert bunch.data[1] == [("It",), ("said",), ("1/2",), (".",)]
    assert bunch.target[1] == ["pps", "vbd", "cd", "."]
    assert (bunch.columns, bunch.label) == (("word",), "tag") and "Brown" in bunch.DESCR
    # The second call reads the local copy: the URL no longer matters.
    use_url(monkeypatch, "brown", "http://127.0.0.1:9/gone.zip")
    assert fetch_brown(data_home=tmp_path / "dl", return_X_y=True) == (bunch.data, bunch.target)


def test_fetch_ptb_sample_writes_all_three_subsets(isolated, tmp_path, http_server, monkeypatch):
    use_url(monkeypatch, "ptb-sample", serve_zip(http_server, "dependency_treebank.zip", WSJ))

    X, heads = fetch_ptb_sample("dev", data_home=tmp_path / "dl", return_X_y=True)

    folder = tmp_path / "dl" / "ptb-sample"
    assert listing(folder) == ["dev.conllu", "test.conllu", "train.conllu"]
    assert (folder / "dev.conllu").read_text() == (
        # a relation label (4th Malt-TAB column) is dropped: the sample is unlabelled
        "1\tMs.\t_\t_\tNNP\t_\t2\t_\t_\t_\n2\tHaag\t_\t_\tNNP\t_\t0\t_\t_\t_\n\n"
    )
    assert (folder / "train.conllu").read_text() == (
        "1\tPierre\t_\t_\tNNP\t_\t2\t_\t_\t_\n2\tsmiled\t_\t_\tVBD\t_\t0\t_\t_\t_\n\n"
        "1\tHe\t_\t_\tPRP\t_\t2\t_\t_\t_\n2\tsat\t_\t_\tVBD\t_\t0\t_\t_\t_\n\n"
    )
    assert [[t["form"] for t in s] for s in X] == [["Ms.", "Haag"]] and heads == [[2, 0]]
    # The other subsets were written by the same download and are read locally.
    use_url(monkeypatch, "ptb-sample", "http://127.0.0.1:9/gone.zip")
    bunch = fetch_ptb_sample("test", data_home=tmp_path / "dl")
    assert bunch.target == [[0]] and bunch.data[0][0]["xpos"] == "VB"
    assert "Penn Treebank" in bunch.DESCR


def test_fetch_treebank_splits_the_nltk_package(isolated, tmp_path, http_server, monkeypatch):
    members = {
        "treebank/combined/wsj_0001.mrg": "\n( (S (NP-SBJ (NNP Pierre)) (VP (VBZ is)) (. .)) )\n",
        "treebank/combined/wsj_0002.mrg": "( (S (NP (-NONE- *)) (VP (VB go))) )\n",
        "treebank/combined/wsj_0160.mrg": "( (S (NNP Haag)) )\n",
        "treebank/combined/wsj_0180.mrg": "( (S (VB Go)) )\n",
        "treebank/combined/wsj_0200.mrg": "( (S (IN Outside)) )\n",  # past the sample's files
        "treebank/README": "not a tree file\n",
    }
    use_url(monkeypatch, "treebank", serve_zip(http_server, "treebank.zip", members))

    X, trees = fetch_treebank("train", data_home=tmp_path / "dl", return_X_y=True)

    assert [t.leaves() for t in trees] == [["Pierre", "is", "."], ["*", "go"]]
    assert X == [
        [
            {"form": "Pierre", "xpos": "NNP"},
            {"form": "is", "xpos": "VBZ"},
            {"form": ".", "xpos": "."},
        ],
        [{"form": "go", "xpos": "VB"}],
    ]
    folder = tmp_path / "dl" / "treebank"
    assert listing(folder) == ["dev.mrg", "test.mrg", "train.mrg"]
    assert [t.leaves() for t in fetch_treebank("test", data_home=tmp_path / "dl").target] == [
        ["Go"]
    ]


def test_fetch_conll2007_copies_spanish_and_converts_basque(
    isolated, tmp_path, http_server, monkeypatch
):
    # PHEAD and PDEPREL copy the gold columns, as in NLTK's files
    es = "1\tAño\taño\tn\tnc\t_\t0\tROOT\t0\tROOT\n\n"
    # Latin-1: read as ISO-8859-2 (NLTK's choice), "ñ" would be "ń"
    eu = "1\tIruñea\tIruñea\tIZE\tIZE\t_\t0\tROOT\t_\t_\n\n"
    members = {
        "conll2007/esp.train": es,
        "conll2007/esp.test": es,
        "conll2007/eus.train": eu.encode("latin-1"),
        "conll2007/eus.test": eu.encode("latin-1"),
    }
    url = serve_zip(http_server, "conll2007.zip", members)
    use_url(monkeypatch, "conll2007-es", url)
    use_url(monkeypatch, "conll2007-eu", url)
    home = tmp_path / "dl"

    bunch = fetch_conll2007("es", "test", labelled=True, data_home=home)
    X, heads = fetch_conll2007("eu", "train", data_home=home, return_X_y=True)

    assert (home / "conll2007-es" / "test.conll").read_text(encoding="utf-8") == es
    assert bunch.data[0][0]["form"] == "Año" and bunch.target == [[(0, "ROOT")]]
    # the copies of the gold head and relation never reach the tokens (or features)
    assert bunch.data[0][0]["deps"] is None and bunch.data[0][0]["misc"] is None
    assert "Spanish" in bunch.DESCR
    assert (home / "conll2007-eu" / "train.conll").read_text(encoding="utf-8") == eu
    assert X[0][0]["form"] == "Iruñea" and heads == [[0]]
    assert listing(home) == ["conll2007-es", "conll2007-eu"]  # each language its own folder


def test_fetch_conll2000_falls_back_to_the_nltk_package(
    isolated, tmp_path, http_server, closed_url, monkeypatch
):
    train, test = "He PRP B-NP\nsat VBD B-VP\n\n", "It PRP B-NP\n"
    url = serve_zip(
        http_server, "conll2000.zip", {"conll2000/train.txt": train, "conll2000/test.txt": test}
    )
    monkeypatch.setitem(_sources.URLS["conll2000"], "test", (closed_url, url))

    X, y = fetch_conll2000("test", data_home=tmp_path / "dl", return_X_y=True)

    assert (X, y) == ([[("It", "PRP")]], [["B-NP"]])
    assert (tmp_path / "dl" / "conll2000" / "train.txt").read_text() == train


def test_fetch_conll2002_takes_one_language_from_the_package(
    isolated, tmp_path, http_server, monkeypatch
):
    members = {f"conll2002/esp.{s}": f"Madrid NC B-LOC\n{s} NC O\n" for s in ("train", "testa")}
    members["conll2002/esp.testb"] = "Señor NC O\n".encode("latin-1")
    members.update({f"conll2002/ned.{s}": "Jan N B-PER\n" for s in ("train", "testa", "testb")})
    use_url(monkeypatch, "conll2002-es", serve_zip(http_server, "conll2002.zip", members))

    bunch = fetch_conll2002("es", "testb", data_home=tmp_path / "dl")

    assert bunch.data == [[("Señor", "NC")]]
    assert listing(tmp_path / "dl") == ["conll2002-es"]
    assert listing(tmp_path / "dl" / "conll2002-es") == ["testa.txt", "testb.txt", "train.txt"]
    assert (tmp_path / "dl" / "conll2002-es" / "testa.txt").read_text() == (
        "Madrid NC B-LOC\ntesta NC O\n"
    )


def test_archive_leaves_files_already_there(isolated, tmp_path, http_server, monkeypatch):
    url = serve_zip(http_server, "dependency_treebank.zip", WSJ)
    use_url(monkeypatch, "ptb-sample", url)
    folder = tmp_path / "dl" / "ptb-sample"
    folder.mkdir(parents=True)
    own = "1\tMine\t_\t_\tNN\t_\t0\t_\t_\t_\n\n"
    (folder / "test.conllu").write_text(own)

    fetch_ptb_sample("train", data_home=tmp_path / "dl")

    assert (folder / "test.conllu").read_text() == own
    assert listing(folder) == ["dev.conllu", "test.conllu", "train.conllu"]


@pytest.mark.parametrize(
    ("members", "reason"),
    [
        ({"brown/ca01": "\tThe/at jury\n"}, "token 'jury' is not 'word/tag'"),
        ({"brown/README": "no text files\n"}, "no member matching"),
    ],
)
def test_broken_package_keeps_nothing(
    isolated, tmp_path, http_server, monkeypatch, members, reason
):
    url = serve_zip(http_server, "brown.zip", members)
    use_url(monkeypatch, "brown", url)
    with pytest.raises(OSError, match="downloading it to") as info:
        fetch_brown(data_home=tmp_path / "dl")
    assert url in str(info.value) and reason in str(info.value)
    folder = tmp_path / "dl" / "brown"
    assert not folder.exists() or listing(folder) == []


def test_malformed_requested_file_keeps_none_of_its_siblings(
    isolated, tmp_path, http_server, monkeypatch
):
    members = {
        "conll2007/esp.train": "1\tbad line\n",  # two fields, not ten
        "conll2007/esp.test": "1\tAño\taño\tn\tnc\t_\t0\tROOT\t_\t_\n\n",
    }
    use_url(monkeypatch, "conll2007-es", serve_zip(http_server, "conll2007.zip", members))
    with pytest.raises(OSError, match="conll2007-es subset 'train'"):
        fetch_conll2007(data_home=tmp_path / "dl")
    folder = tmp_path / "dl" / "conll2007-es"
    assert listing(folder) == []  # test.conll was fine but came with a broken download


def test_failed_download_says_where_what_and_how_to_fix(
    isolated, tmp_path, closed_url, monkeypatch
):
    use_url(monkeypatch, "ptb-sample", closed_url)
    monkeypatch.setenv("SKSTRUCT_DATA", str(tmp_path / "env"))
    with pytest.raises(OSError) as info:
        fetch_ptb_sample("dev", data_home=tmp_path / "explicit")
    message = str(info.value)
    for home in (tmp_path / "explicit", tmp_path / "env", isolated / "skstruct_data"):
        assert str(home / "ptb-sample" / "dev.conllu") in message
    assert f"{closed_url} (URLError" in message and "refused" in message.lower()
    assert "set SKSTRUCT_DATA to a folder that holds ptb-sample/dev.conllu" in message
    assert "run fetch_ptb_sample()" in message
    assert not (tmp_path / "explicit").exists()


def test_without_download_the_message_names_the_fetcher(isolated, tmp_path):
    with pytest.raises(OSError, match=r"download_if_missing=False") as info:
        fetch_brown(data_home=tmp_path, download_if_missing=False)
    assert "brown/brown.tsv" in str(info.value) and "fetch_brown()" in str(info.value)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: fetch_ptb_sample("validation"), "subset must be one of"),
        (lambda: fetch_conll2007("fr"), "language must be one of"),
        (lambda: fetch_conll2007("es", "dev"), "subset must be one of"),
    ],
)
def test_fetch_rejects_bad_arguments(isolated, call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_every_file_of_the_layout_has_a_public_source():
    for folder, files in _sources.FILES.items():
        assert set(_sources.URLS[folder]) == set(files), folder
        for subset in files:
            urls = _sources.URLS[folder][subset]
            urls = (urls,) if isinstance(urls, str) else urls
            assert all(url.startswith("https://") for url in urls), (folder, subset)
            # NLTK's packages last, or a Universal Dependencies release
            last = urls[-1]
            assert last.startswith(_sources.NLTK_URL) or last.startswith(
                "https://raw.githubusercontent.com/UniversalDependencies/UD_"
            ), (folder, subset)


# ---------------------------------------------------------------- round trips of real slices


def _blocks(path, n):
    return path.read_text(encoding="utf-8").split("\n\n")[:n]


@pytest.mark.data
def test_brown_round_trip(corpus, isolated, tmp_path, http_server, monkeypatch):
    sentences = _blocks(corpus("brown") / "brown.tsv", 300)
    lines = [
        "\t" + " ".join("/".join(row.split("\t")) for row in sentence.split("\n"))
        for sentence in sentences
    ]
    ca01 = "\n\n" + "\n\n\n".join(lines[:200]) + "\n"
    ca02 = "\n\n" + "\n\n\n".join(lines[200:]) + "\n"
    url = serve_zip(http_server, "brown.zip", {"brown/ca02": ca02, "brown/ca01": ca01})
    use_url(monkeypatch, "brown", url)
    bunch = fetch_brown(data_home=tmp_path / "dl")
    expected = "".join(sentence + "\n\n" for sentence in sentences)
    assert (tmp_path / "dl" / "brown" / "brown.tsv").read_text(encoding="utf-8") == expected
    assert len(bunch.data) == 300


@pytest.mark.data
def test_ptb_sample_round_trip(corpus, isolated, tmp_path, http_server, monkeypatch):
    members, expected = {}, {}
    for subset, number in (("train", 1), ("dev", 160), ("test", 180)):
        sentences = _blocks(corpus("ptb-sample") / f"{subset}.conllu", 40)
        members[f"dependency_treebank/wsj_{number:04d}.dp"] = "\n\n".join(
            "\n".join(
                "\t".join(row.split("\t")[i] for i in (1, 4, 6)) for row in sentence.split("\n")
            )
            for sentence in sentences
        )
        expected[subset] = "".join(sentence + "\n\n" for sentence in sentences)
    use_url(monkeypatch, "ptb-sample", serve_zip(http_server, "dependency_treebank.zip", members))
    fetch_ptb_sample("train", data_home=tmp_path / "dl")
    for subset, text in expected.items():
        path = tmp_path / "dl" / "ptb-sample" / f"{subset}.conllu"
        assert path.read_text(encoding="utf-8") == text, subset


@pytest.mark.data
def test_conll2007_round_trip(corpus, isolated, tmp_path, http_server, monkeypatch):
    texts = {
        subset: "".join(s + "\n\n" for s in _blocks(corpus("conll2007-es") / f"{subset}.conll", 50))
        for subset in ("train", "test")
    }
    members = {f"conll2007/esp.{subset}": text for subset, text in texts.items()}
    use_url(monkeypatch, "conll2007-es", serve_zip(http_server, "conll2007.zip", members))
    bunch = fetch_conll2007("es", "test", labelled=True, data_home=tmp_path / "dl")
    for subset, text in texts.items():
        path = tmp_path / "dl" / "conll2007-es" / f"{subset}.conll"
        assert path.read_text(encoding="utf-8") == text
    assert len(bunch.data) == 50


# ---------------------------------------------------------------- the suite's corpus lookup


@pytest.fixture
def lookup(isolated, monkeypatch, tmp_path):
    """tests/conftest.py's lookup with fresh caches and its homes under tmp_path."""
    monkeypatch.setattr(conftest, "_FOUND", {})
    monkeypatch.setattr(conftest, "_MISSING", {})
    monkeypatch.setattr(conftest, "_DOWNLOAD_HOME", tmp_path / "home" / "skstruct_data")
    return conftest.find_corpus


def test_lookup_with_skstruct_data_never_downloads(lookup, tmp_path, monkeypatch):
    env = tmp_path / "env"
    monkeypatch.setattr(conftest, "_ENV_HOME", str(env))
    monkeypatch.setitem(_sources.URLS["ptb-sample"], "train", "http://127.0.0.1:9/never.zip")
    with pytest.raises(conftest.MissingCorpus) as info:
        lookup("ptb-sample")
    message = info.value.msg
    assert f"SKSTRUCT_DATA={str(env)!r}" in message and "download nothing" in message
    assert "train.conllu, dev.conllu, test.conllu" in message and "docs/data.md" in message
    assert "fetch_ptb_sample()" in message
    # The failure is remembered for the session: files that appear later are not looked for.
    for name in ("train.conllu", "dev.conllu", "test.conllu"):
        (env / "ptb-sample").mkdir(parents=True, exist_ok=True)
        (env / "ptb-sample" / name).write_text("1\tx\t_\t_\tNN\t_\t0\t_\t_\t_\n\n")
    with pytest.raises(conftest.MissingCorpus):
        lookup("ptb-sample")
    conftest._MISSING.clear()
    assert lookup("ptb-sample") == env / "ptb-sample"


def test_lookup_without_skstruct_data_downloads_once(lookup, tmp_path, http_server, monkeypatch):
    monkeypatch.setattr(conftest, "_ENV_HOME", None)
    use_url(monkeypatch, "ptb-sample", serve_zip(http_server, "dependency_treebank.zip", WSJ))
    folder = lookup("ptb-sample")
    assert folder == tmp_path / "home" / "skstruct_data" / "ptb-sample"
    assert listing(folder) == ["dev.conllu", "test.conllu", "train.conllu"]


def test_lookup_without_network_says_what_to_do(lookup, tmp_path, closed_url, monkeypatch):
    monkeypatch.setattr(conftest, "_ENV_HOME", None)
    use_url(monkeypatch, "brown", closed_url)
    with pytest.raises(conftest.MissingCorpus) as info:
        lookup("brown")
    message = info.value.msg
    assert message.startswith("Corpus brown/ is missing and could not be downloaded")
    assert closed_url in message and "set SKSTRUCT_DATA to a folder that holds" in message


# -- Universal Dependencies releases -----------------------------------------------------------

UD_SENTENCE = (
    "# sent_id = 1\n"
    "1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t2\tnsubj\t2:nsubj\t_\n"
    "2\tbark\tbark\tVERB\tVBP\tMood=Ind\t0\troot\t0:root\t_\n\n"
)


def test_fetch_ud_downloads_a_release_file_once(isolated, tmp_path, http_server, monkeypatch):
    base, root = http_server
    (root / "dev.conllu").write_text(UD_SENTENCE, encoding="utf-8")
    use_url(monkeypatch, "ud-ewt", f"{base}/dev.conllu")
    home = tmp_path / "dl"

    bunch = fetch_ud("en_ewt", "dev", labelled=True, data_home=home)

    assert (home / "ud-ewt" / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8") == UD_SENTENCE
    assert bunch.target == [[(2, "nsubj"), (0, "root")]] and bunch.data[0][0]["lemma"] == "dog"
    assert "UD_English-EWT" in bunch.DESCR and "release 2.5" in bunch.DESCR
    (root / "dev.conllu").unlink()  # local first: the copy is read, nothing downloaded
    _, y = fetch_ud("en_ewt", "dev", data_home=home, return_X_y=True, download_if_missing=False)
    assert y == [[2, 0]] and listing(home / "ud-ewt") == ["en_ewt-ud-dev.conllu"]


def test_fetch_ud_takes_other_treebanks_and_releases(isolated, tmp_path, http_server, monkeypatch):
    base, root = http_server
    (root / "UD_French-GSD" / "r2.8").mkdir(parents=True)
    (root / "UD_French-GSD" / "r2.8" / "fr_gsd-ud-test.conllu").write_text(UD_SENTENCE)
    monkeypatch.setattr(
        _sources, "UD_URL", f"{base}/{{repository}}/r{{version}}/{{treebank}}-ud-{{subset}}.conllu"
    )
    folder = "ud-fr_gsd-2.8"
    try:
        X, _ = fetch_ud("fr_gsd", "test", version="2.8", data_home=tmp_path, return_X_y=True)
        assert [t["form"] for t in X[0]] == ["Dogs", "bark"]
        assert (tmp_path / folder / "fr_gsd-ud-test.conllu").is_file()
        with pytest.raises(OSError, match=r"fr_gsd-ud-train\.conllu.*404"):  # no such file
            fetch_ud("fr_gsd", "train", version="2.8", data_home=tmp_path)
    finally:
        for table in (_sources.FILES, _sources.URLS, _sources.FETCHERS):
            table.pop(folder, None)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"treebank": "English"}, "treebank='English' is not a UD treebank name"),
        ({"version": "r2.5"}, "version='r2.5' is not a UD version name"),
        ({"subset": "testb"}, "subset"),
        ({"treebank": "xx_none"}, "No repository known for the treebank 'xx_none': pass"),
        ({"treebank": "xx_none", "repository": "French-GSD"}, "not a UD repository name"),
    ],
)
def test_fetch_ud_refuses_bad_names(isolated, kwargs, match):
    with pytest.raises(ValueError, match=match):
        fetch_ud(**kwargs, download_if_missing=False)
