"""`tileas-opt`'s console entry point, which starts with Python's cyclic collector paused.

Start-up imports xDSL and tileas-py and registers dialects, passes and targets: about a
hundred thousand objects that live as long as the process, and nothing cyclic to free.
Every collection the interpreter starts meanwhile walks them all again, some 9 ms of a
0.13 s start. This module imports nothing heavy, so the pause covers those imports;
`tileas_opt.main` freezes what start-up built and resumes the collector before it reads
the input.
"""

import gc


def tileas_opt() -> None:
    gc.disable()
    from tileas_py.tools.tileas_opt import main

    main()
