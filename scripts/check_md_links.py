#!/usr/bin/env python3
"""Checks that the repository's documents point only at what the repository has.

    scripts/check_md_links.py [--links-only] [ROOT]

ROOT (default: the folder above this script) is the repository. The documents
are every *.md file under ROOT (README.md, docs/, contrib/, ...; not build
folders, .git or node_modules). In each:

  - every Markdown link [text](target) and reference definition [id]: target
    whose target has no scheme (http:, https:, mailto:, ...) must name a file
    or folder inside ROOT, relative to the document's folder; a #anchor must
    be a heading of the target document (GitHub's heading ids);
  - every `code span` that is a repository path must name an existing file or
    folder (a glob must match one): a path whose first part is a top-level
    entry of ROOT (src/, docs/, README.md, ...) from ROOT; a path whose first
    part is a folder of src/ (io/asgn_file.h) from src/; a bare *.md name from
    the document's folder (docs/), then from docs/; a bare source or script
    name (ntt.c, gpu-check.sh) must be the name of some file in ROOT;
  - nothing may leave ROOT (../shared/DESIGN.md and the like).

A path in a code span may also be relative to the document's own folder (a
crate's README names its src/lib.rs). With --links-only only the links and
their anchors are checked: for the documents as installed (ROOT is then the
install's doc folder, README.md beside docs/), where the sources are not.

Fenced code blocks are not read. Prints one line per broken reference, with
the document and the line; exits 1 when there is one, 0 otherwise.
"""

import glob
import os
import re
import sys
import unicodedata

SKIP_DIRS = {".git", "build", "node_modules", ".cache", "target"}
# Bare names with these endings are file names the documents cite.
SOURCE_ENDINGS = (".c", ".h", ".cu", ".cuh", ".sh", ".py", ".md", ".in", ".service", ".conf")

LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK_TARGET = re.compile(r"^[A-Za-z0-9_./#%~+-]+$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
PATHLIKE = re.compile(r"^[A-Za-z0-9_.@*-]+(?:/[A-Za-z0-9_.@*-]+)*/?$")


def github_slug(heading):
    """The id GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in "-_" or cat[0] in "LN" or cat == "Mn":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


def headings(path):
    """The anchors of a Markdown file (duplicates numbered as GitHub numbers them)."""
    ids, seen = set(), {}
    for line in strip_fences(read_lines(path)):
        m = re.match(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line[1])
        if not m:
            continue
        slug = github_slug(m.group(2))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        ids.add(slug if n == 0 else "%s-%d" % (slug, n))
    return ids


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def strip_fences(lines):
    """(line number, text) for every line outside fenced code blocks."""
    fence = None
    for i, line in enumerate(lines, 1):
        m = re.match(r"^\s{0,3}(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield i, line


class Checker:
    def __init__(self, root, links_only=False):
        self.root = os.path.realpath(root)
        self.links_only = links_only
        self.top = set(os.listdir(self.root)) - SKIP_DIRS
        src = os.path.join(self.root, "src")
        self.src_dirs = set(os.listdir(src)) if os.path.isdir(src) else set()
        self.names = set()
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            self.names.update(filenames)
        self.anchor_cache = {}
        self.errors = []

    def error(self, doc, line, what):
        self.errors.append("%s:%d: %s" % (os.path.relpath(doc, self.root), line, what))

    def inside(self, path):
        real = os.path.realpath(path)
        return real == self.root or real.startswith(self.root + os.sep)

    def exists(self, path):
        return bool(glob.glob(path)) if any(c in path for c in "*?[") else os.path.exists(path)

    def check_link(self, doc, line, target):
        if not target or SCHEME.match(target) or not LINK_TARGET.match(target):
            return  # a URL, or brackets and parentheses of a formula
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
        if not self.inside(resolved):
            self.error(doc, line, "link '%s' leaves the repository" % target)
            return
        if not os.path.exists(resolved):
            self.error(doc, line, "link '%s': no file %s" % (target, os.path.relpath(resolved, self.root)))
            return
        if anchor and resolved.endswith(".md"):
            if resolved not in self.anchor_cache:
                self.anchor_cache[resolved] = headings(resolved)
            if anchor not in self.anchor_cache[resolved]:
                self.error(doc, line, "link '%s': %s has no heading '#%s'"
                           % (target, os.path.relpath(resolved, self.root), anchor))

    def check_path(self, doc, line, text):
        """A code span that names a repository path."""
        if text.startswith("../") or "/../" in text or text.endswith("/.."):
            self.error(doc, line, "`%s` leaves the repository" % text)
            return
        if not PATHLIKE.match(text) or text.startswith("."):
            return
        if "/" in text and self.exists(os.path.join(os.path.dirname(doc), text)):
            return  # relative to the document (a crate's README)
        first = text.split("/")[0]
        if "/" in text or first in self.top:
            if first in self.top:
                base = self.root
            elif first in self.src_dirs:
                base = os.path.join(self.root, "src")
            else:
                return  # a path of another project or of the user's files
            if not self.exists(os.path.join(base, text)):
                where = "the repository" if base == self.root else os.path.relpath(base, self.root) + "/"
                self.error(doc, line, "`%s`: no such file or folder in %s" % (text, where))
        elif text.endswith(".md"):
            here = os.path.join(os.path.dirname(doc), text)
            if not os.path.exists(here) and not os.path.exists(os.path.join(self.root, "docs", text)):
                self.error(doc, line, "`%s`: no such document next to %s or in docs/"
                           % (text, os.path.relpath(doc, self.root)))
        elif text.endswith(SOURCE_ENDINGS) and "*" not in text:
            if text not in self.names:
                self.error(doc, line, "`%s`: no file of that name in the repository" % text)

    def check_doc(self, doc):
        for line, text in strip_fences(read_lines(doc)):
            spans = [m.group(2).strip() for m in CODE_SPAN.finditer(text)]
            prose = CODE_SPAN.sub("", text)
            for m in LINK.finditer(prose):
                self.check_link(doc, line, m.group(3))
            m = REFDEF.match(prose)
            if m:
                self.check_link(doc, line, m.group(1))
            if self.links_only:
                continue
            for span in spans:
                self.check_path(doc, line, span)
            if "../shared" in text:
                self.error(doc, line, "names ../shared, which is outside the repository")

    def docs(self):
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith(("build", ".")))
            found += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".md")]
        return found


def main(argv):
    args = argv[1:]
    links_only = "--links-only" in args
    args = [a for a in args if a != "--links-only"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    checker = Checker(root, links_only)
    docs = checker.docs()
    if not docs:
        print("check_md_links: no *.md document under %s" % checker.root)
        return 1
    for doc in docs:
        checker.check_doc(doc)
    for e in checker.errors:
        print(e)
    print("%d document(s), %d broken reference(s)" % (len(docs), len(checker.errors)))
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
