#!/usr/bin/env python3
# ===- check-docs.py - Dead links, missing paths, tracker numbers ---------=== #
#
# Checks what a reader of the project meets first:
#
#   * links between pages: every relative markdown link of README.md and
#     docs/*.md names a file of the tree and, after a `#`, a heading of it;
#   * paths: every backquoted repository path in those pages (`lib/...`,
#     `test/...`, ...) exists;
#   * tracker numbers: no "issue <number>" in those pages nor in the
#     installed headers (include/), whose readers have no such tracker.
#
#   scripts/check-docs.py [--root DIR] [--verbose]
#
# Prints one line per problem (`file:line: kind: detail`) and exits 1 if
# there is any. Nothing is skipped silently: the summary counts the links
# it does not follow (web addresses) and the backquoted words it cannot
# check (placeholders such as `<Kernel>`,
# outputs under build/), and --verbose lists them.
# test/Docs/check-docs.test runs it on the tree and on broken inputs.
#
# ===----------------------------------------------------------------------=== #

import argparse
import glob
import os
import re
import sys

# The top-level folders and files of the tree: a backquoted word that starts
# with one of them is a repository path.
TOP_DIRS = ("bench", "cmake", "docs", "examples", "include", "lib", "python",
            "scripts", "test", "tools", ".github")
TOP_FILES = ("README.md", "CMakeLists.txt", "LICENSE")
# Pages that a generator writes from a run: not read for paths or links.
GENERATED = ("bench/results/tables.md",)

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# The word issue with a number: plain, after "#", as "issue's (#N", and as
# "issues N and M" or "issues N, M".
TRACKER = re.compile(
    r"\bissue(?:'s)?\s+(?:\(?#)?(\d+)\b|\bissues\s+#?(\d+)\s*(?:,|and\b|&)",
    re.IGNORECASE)
# Characters of a placeholder (`bench/Bench<Kernel>.cpp`, `$OUT/x`): such a
# word names no one file and is counted as not checked. Globs (`*`) must
# match a file, and braces (`{h,cpp}`) are expanded.
PLACEHOLDER_CHARS = set("<>$%")


def expand_braces(word):
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    return [p for alt in m.group(1).split(",")
            for p in expand_braces(word[:m.start()] + alt + word[m.end():])]


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"`|\*\*|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, found, fenced = {}, set(), False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("```"):
                    fenced = not fenced
                m = None if fenced else re.match(r"#{1,6}\s+(.*)", line)
                if not m:
                    continue
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                found.add(s if n == 0 else "%s-%d" % (s, n))
        cache[path] = found
    return cache[path]


class Checker:
    def __init__(self, root):
        self.root = root
        self.problems = []
        self.links = self.paths = 0
        self.skipped = []  # (where, what, why)

    def problem(self, where, kind, detail):
        self.problems.append("%s: %s: %s" % (where, kind, detail))

    def skip(self, where, what, why):
        self.skipped.append((where, what, why))

    def rel(self, path):
        return os.path.relpath(path, self.root)

    # --- links --------------------------------------------------------------
    def check_link(self, where, page, target):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            self.skip(where, target, "web address")
            return
        self.links += 1
        file_part, _, anchor = target.partition("#")
        dest = (os.path.normpath(os.path.join(os.path.dirname(page), file_part))
                if file_part else page)
        if not os.path.exists(dest):
            self.problem(where, "dead link", target)
            return
        if anchor and dest.endswith(".md") and anchor not in anchors(dest):
            self.problem(where, "dead link", "%s (no heading #%s in %s)"
                         % (target, anchor, self.rel(dest)))

    # --- backquoted paths -----------------------------------------------------
    def check_word(self, where, word):
        word = word.strip(".,;:()'\"")
        word = re.sub(r":\d+(-\d+)?$", "", word)  # file:line
        if word.startswith("./"):
            word = word[2:]
        top = word.split("/", 1)[0]
        if top == "build" and "/" in word:
            self.skip(where, word, "build output")
            return
        if not ((top in TOP_DIRS and "/" in word) or word in TOP_FILES):
            return
        if PLACEHOLDER_CHARS & set(word) or "..." in word:
            self.skip(where, word, "placeholder")
            return
        for path in expand_braces(word):
            self.paths += 1
            if set("*?[") & set(path):
                if not glob.glob(os.path.join(self.root, path)):
                    self.problem(where, "no such path", "%s (matches nothing)"
                                 % path)
            elif not os.path.exists(os.path.join(self.root, path)):
                self.problem(where, "no such path", path)

    def check_page(self, page):
        fenced = False
        with open(page, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                where = "%s:%d" % (self.rel(page), number)
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                for m in LINK.finditer(line):
                    self.check_link(where, page, m.group(1))
                for m in IMAGE.finditer(line):
                    self.check_link(where, page, m.group(1))
                for m in CODE_SPAN.finditer(line):
                    for word in m.group(2).split():
                        self.check_word(where, word)

    # --- tracker numbers ------------------------------------------------------
    def check_tracker(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
        except UnicodeDecodeError:
            self.skip(self.rel(path), "(binary)", "not text")
            return
        for number, line in enumerate(lines, 1):
            for m in TRACKER.finditer(line):
                self.problem("%s:%d" % (self.rel(path), number),
                             "internal issue number",
                             "(%s) the reader has no such tracker; say what "
                             "the text means instead" % (m.group(1) or m.group(2)))


def files_under(root, folder, suffixes=None):
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
        dirnames.sort()
        for name in sorted(filenames):
            if suffixes is None or name.endswith(suffixes):
                out.append(os.path.join(dirpath, name))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    checker = Checker(root)

    pages = [p for p in [os.path.join(root, "README.md")]
             + files_under(root, "docs", (".md",))
             + files_under(root, "bench", (".md",))
             if os.path.exists(p)]
    for page in pages:
        if checker.rel(page) in GENERATED:
            checker.skip(checker.rel(page), "(whole page)", "generated")
            continue
        checker.check_page(page)
    headers = files_under(root, "include")
    for path in pages + headers:
        checker.check_tracker(path)

    for line in checker.problems:
        print(line)
    reasons = {}
    for _, _, why in checker.skipped:
        reasons[why] = reasons.get(why, 0) + 1
    print("check-docs: %d pages, %d headers; %d links and %d paths checked; "
          "not checked: %s; %d problems"
          % (len(pages), len(headers), checker.links, checker.paths,
             ", ".join("%d %s" % (n, why) for why, n in sorted(reasons.items()))
             or "none", len(checker.problems)))
    if args.verbose:
        for where, what, why in checker.skipped:
            print("  not checked (%s): %s %s" % (why, where, what))
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main())
