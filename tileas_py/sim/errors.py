"""The simulator's exceptions.

`SimulationError` stops a run: a deadlock, an out-of-bounds or misaligned access, an
unsupported instruction, or a launch that contradicts the kernel. It names the PTX file and
line where it can, the way a compiler diagnostic does. `HazardError` is the
`SimulationError` of a run that found hazards; it carries the `Report`.
"""

from __future__ import annotations

from tileas_py.sim.report import Hazard, Report


class SimulationError(Exception):
    """A run that cannot go on, with the place it stopped (`file:line: error: ...`)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        report: Report | None = None,
        rendered: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.report = report
        self.rendered = rendered
        """The diagnostic as the front end printed it (a parse error with its caret line)."""
        super().__init__(self.diagnostic())

    def diagnostic(self) -> str:
        """The error as a compiler-style diagnostic: `file:line: error: message`."""
        if self.rendered is not None:
            return self.rendered
        if self.line is not None:
            return f"{self.file or '<ptx>'}:{self.line}: error: {self.message}"
        if self.file is not None:
            return f"{self.file}: error: {self.message}"
        return f"error: {self.message}"


class HazardError(SimulationError):
    """The run found hazards (with `check=True`), or stopped after finding some."""

    def __init__(
        self,
        report: Report,
        *,
        stopped_by: SimulationError | None = None,
        file: str | None = None,
    ) -> None:
        self.stopped_by = stopped_by
        count = len(report.hazards)
        message = f"{count} hazard(s) in kernel '{report.kernel}'"
        if stopped_by is not None:
            message += f"; then the run stopped: {stopped_by.message}"
        super().__init__(
            message,
            file=file,
            line=stopped_by.line if stopped_by is not None else None,
            report=report,
        )

    @property
    def hazards(self) -> list[Hazard]:
        """The hazards of the report."""
        return self.report.hazards if self.report is not None else []
