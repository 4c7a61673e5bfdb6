#!/usr/bin/env python3
"""Check out a pinned git source and prove it is the pinned commit.

  tag:    the tag must resolve to the pinned commit; tags move, and a moved tag fails the build.
  branch: the pinned commit is checked out and must be on the branch (the branch may have
          moved on: that is reported, not fatal, since the commit is what is pinned).
No submodule is ever updated to a remote tip.
"""

import argparse
import subprocess
import sys


def git(*args, cwd=None, check=True):
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and result.returncode:
        fail(f"git {' '.join(args[:2])} failed: {(result.stderr.strip().splitlines() or ['?'])[-1]}")
    return result.stdout.strip()


def fail(message):
    print(f"fetch_source: {message}", file=sys.stderr)
    sys.exit(1)


def fetch(repo, ref, is_tag, commit, dest):
    git("init", "-q", dest)
    git("remote", "add", "origin", repo, cwd=dest)
    refspec = f"refs/tags/{ref}:refs/tags/{ref}" if is_tag else f"refs/heads/{ref}:refs/remotes/origin/{ref}"
    git("fetch", "-q", "--filter=blob:none", "origin", refspec, cwd=dest)
    resolved = git("rev-parse", f"refs/tags/{ref}^{{commit}}" if is_tag else f"refs/remotes/origin/{ref}", cwd=dest)
    if is_tag and resolved != commit:
        fail(f"{repo} tag {ref} resolves to {resolved}, pinned {commit}: the tag moved; re-pin it "
             f"(python build.py bump COMPONENT --tag {ref} --commit {resolved}) after checking why")
    if not is_tag and resolved != commit:
        on_branch = subprocess.run(["git", "merge-base", "--is-ancestor", commit, resolved], cwd=dest).returncode == 0
        if not on_branch:
            fail(f"{repo} commit {commit} is not on branch {ref} (head {resolved}): re-pin it")
        print(f"fetch_source: note: {ref} has moved on to {resolved}; building the pinned {commit}")
    git("checkout", "-q", "--detach", commit, cwd=dest)
    head = git("rev-parse", "HEAD", cwd=dest)
    if head != commit:
        fail(f"checked out {head}, pinned {commit}")
    if any(line.startswith("160000") for line in git("ls-files", "-s", cwd=dest).splitlines()):
        # the commits the pinned tree records, never the submodules' remote tips
        git("submodule", "update", "--init", "--recursive", cwd=dest)
    print(f"fetch_source: {repo} {ref} = {commit}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", required=True)
    ref = parser.add_mutually_exclusive_group(required=True)
    ref.add_argument("--tag")
    ref.add_argument("--branch")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--dest", required=True)
    args = parser.parse_args()
    fetch(args.repo, args.tag or args.branch, bool(args.tag), args.commit, args.dest)


if __name__ == "__main__":
    main()
