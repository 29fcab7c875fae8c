"""The tcgen05 ops convert-nvvm-to-ori selects become Blackwell's tensor-core instructions:
ptxas 13.5 (-arch=sm_100a) assembles `tcgen05.mma` of kind f16 and tf32 into UTCHMMA,
f8f6f4 into UTCQMMA and i8 into UTCIMMA (`.2CTA` for cta_group::2), `tcgen05.commit`
into UTCBAR, `tcgen05.cp` into UTCCP, `tcgen05.shift` into UTCSHIFT and the allocation into
UTCATOMSWS."""

from pathlib import Path

from tileas_py.ptx.toolchain import disassemble, run_ptxas
from tileas_py.tools.tileas_opt import run_tool

CASES = Path(__file__).resolve().parent / "tcgen05.mlir"


def _sass(tmp_path: Path) -> list[list[str]]:
    ptx = tmp_path / "all.ptx"
    args = [str(CASES), "--split-input-file", "-p", "convert-nvvm-to-ori"]
    assert run_tool([*args, "-t", "ptx", "-o", str(ptx)]) == 0
    listings: list[list[str]] = []
    for index, text in enumerate(ptx.read_text().split("// -----\n")):
        chunk = tmp_path / f"chunk{index}.ptx"
        chunk.write_text(text)
        result = run_ptxas(chunk, arch="sm_100a")
        assert result.ok, "\n".join(result.messages)
        listings.append(disassemble(chunk.with_suffix(".cubin")))
    return listings


def _opcodes(sass: list[str], prefix: str) -> list[str]:
    return [line.split()[0] for line in sass if line.startswith(prefix)]


def test_each_kind_is_its_tensor_core_instruction(tmp_path: Path) -> None:
    memory, kinds, pair, generic = _sass(tmp_path)
    # f16, tf32, f8f6f4, i8, then f16 with A in tensor memory.
    assert _opcodes(kinds, "UTC") == [
        "UTCHMMA",
        "UTCHMMA",
        "UTCQMMA",
        "UTCIMMA",
        "UTCHMMA",
    ]
    assert _opcodes(pair, "UTCHMMA") == ["UTCHMMA.2CTA"]
    assert _opcodes(pair, "UTCBAR") == ["UTCBAR.2CTA.MULTICAST"]
    # The 2-CTA copies: warpx2::01_23, warpx4 and 128x256b, then the shift.
    assert _opcodes(pair, "UTCCP") == [
        "UTCCP.T.S.2CTA.2x64dp128bit_lw01_lw23",
        "UTCCP.T.S.2CTA.4x32dp128bit",
        "UTCCP.T.S.2CTA",
    ]
    assert _opcodes(pair, "UTCSHIFT") == ["UTCSHIFT.2CTA.DOWN"]
    assert _opcodes(memory, "UTCBAR") == ["UTCBAR"]
    assert any(line.startswith("UTCATOMSWS") for line in memory)
    assert _opcodes(generic, "UTCBAR") == ["UTCBAR"]
