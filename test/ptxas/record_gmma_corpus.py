"""Re-record the ptxas ground truth of the GMMA corpus.

    .venv/bin/python test/ptxas/record_gmma_corpus.py [NAME ...] [--sass NAME ...]

For each kernel (all of them, or those named), run the real ptxas with the arguments of its
`// RUN:` line, write every line ptxas printed to `name.expected`, and write the exit status
it returned back into the `// RUN:` line, and re-record `gmma/sass/name.sass` for the kernels
that have one (`--sass NAME ...` starts recording the SASS of the kernels named). Review the diff before committing: a changed
expectation means ptxas changed, or the kernel no longer exercises what its first line says.
"""

from __future__ import annotations

import sys

from gmma_corpus import CORPUS_DIR, RUN_LINE, SASS_DIR, CorpusCase, corpus_cases


def record(case: CorpusCase, with_sass: bool) -> None:
    result = case.run()
    case.expected.write_text("".join(f"{line}\n" for line in result.messages))
    lines = case.ptx.read_text().splitlines(keepends=True)
    run = RUN_LINE.match(lines[1].rstrip("\n"))
    assert run is not None
    lines[1] = f"{lines[1][: run.start('exit')]}{result.returncode}\n"
    case.ptx.write_text("".join(lines))
    print(f"{case.name}: exit {result.returncode}, {len(result.messages)} line(s)")
    if with_sass or case.sass.exists():
        SASS_DIR.mkdir(exist_ok=True)
        case.sass.write_text("".join(f"{line}\n" for line in case.disassemble()))


def main(args: list[str]) -> None:
    names, sass_names = args, []
    if "--sass" in args:
        at = args.index("--sass")
        names, sass_names = args[:at], args[at + 1 :]
    cases = corpus_cases()
    if names or sass_names:
        cases = [c for c in cases if c.name in names or c.name in sass_names]
        missing = set(names + sass_names) - {c.name for c in cases}
        if missing:
            sys.exit(f"not in {CORPUS_DIR}: {', '.join(sorted(missing))}")
    for case in cases:
        record(case, with_sass=case.name in sass_names)


if __name__ == "__main__":
    main(sys.argv[1:])
