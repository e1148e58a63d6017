"""The code of the front end's pages runs as written: the ```python blocks
of docs/Tutorial.md, docs/PyTorch.md and docs/Frontend.md run in order,
each page as one script (their own asserts check the numbers: gradients against finite
differences, a filter's gradient against the correlation written by hand,
snapshot counts bitwise equal, a torch layer against torch's conv2d), and
a ```mlir block that follows a python block is that block's printed
output, compared exactly; so is a ```text block, line by line, where a
line ending in "..." stands for the printed lines that start with its
text before the dots. Compiled under the pages' names, so that the
locations in messages are the pages' lines."""

import contextlib
import io
import os
import re

import pytest

from conftest import ROOT

FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)


def blocks(page, section=None):
    """[(language, first line, text)] of the fenced blocks of `page` (of
    its `## section` only, when given)."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    lo, hi = 0, len(text)
    if section:
        lo = text.index("\n## %s\n" % section)
        nxt = text.find("\n## ", lo + 1)
        hi = nxt if nxt >= 0 else hi
    out = []
    for m in FENCE.finditer(text, lo, hi):
        line = text.count("\n", 0, m.start(2)) + 1
        out.append((m.group(1), line, m.group(2)))
    return out


def run_page(page, section, tmp_path, monkeypatch):
    found = blocks(page, section)
    assert any(lang == "python" for lang, _, _ in found), page
    monkeypatch.chdir(tmp_path)
    scope = {"__name__": "__docs__"}
    printed = None
    for lang, line, text in found:
        if lang == "python":
            out = io.StringIO()
            code = compile("\n" * (line - 1) + text, page, "exec")
            with contextlib.redirect_stdout(out):
                exec(code, scope)
            printed = out.getvalue()
        elif lang in ("mlir", "text"):
            assert printed is not None, "%s:%d: output of no block" % (
                page, line)
            assert same_output(printed, text, lang == "text"), (
                "%s:%d: the block is not what the code before it prints:\n%s"
                % (page, line, printed))
            printed = None


def same_output(printed, shown, elided):
    got, want = printed.strip().split("\n"), shown.strip().split("\n")
    if len(got) != len(want):
        return False
    return all(g == w or (elided and w.endswith("...") and
                          g.startswith(w[:-3].rstrip()))
               for g, w in zip(got, want))


def test_tutorial_md(tmp_path, monkeypatch):
    run_page("docs/Tutorial.md", None, tmp_path,
             monkeypatch)


def test_pytorch_md(tmp_path, monkeypatch):
    run_page("docs/PyTorch.md", None, tmp_path, monkeypatch)


def test_frontend_md(tmp_path, monkeypatch):
    run_page("docs/Frontend.md", None, tmp_path, monkeypatch)


def test_readme_python(monkeypatch):
    """README.md's Python blocks (the front end's kernel and its checked
    gradient, then a .mlir file), from the repository's root as the README
    runs them."""
    found = [b for b in blocks("README.md") if b[0] == "python"]
    assert any("sa.Kernel" in text for _, _, text in found)
    monkeypatch.chdir(ROOT)
    scope = {"__name__": "__docs__"}
    for _, line, text in found:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile("\n" * (line - 1) + text, "README.md", "exec"),
                 scope)
        assert "0 failed" in out.getvalue() or "check_gradient" not in text


def test_fences_are_found():
    """The checker reads the pages' blocks: a change of fence syntax
    cannot make it run nothing."""
    langs = [lang for lang, _, _ in blocks("docs/Frontend.md")]
    assert langs.count("python") >= 5 and "mlir" in langs, langs
    assert same_output("a b\nc d", "a b\nc ...", True)
    assert not same_output("a b\nc d", "a b\nx ...", True)
    assert not same_output("a b\nc d", "a b\nc ...", False)
    assert not same_output("a b\nc d", "a b", True)
