"""The GMMA diagnostic table: formatting in ptxas's exact form and parsing it back."""

import pytest

from tileas_py.hw.gmma_diagnostics import (
    GMMA_MESSAGE_BY_CODE,
    GMMA_MESSAGES,
    GmmaDiagnostic,
    Severity,
    parse_line,
    parse_ptxas_output,
)

# Lines as ptxas 13.5 prints them (from test/ptxas/gmma/corpus/*.expected).
WAIT_INJECTED = (
    "ptxas info    : (C7517) wgmma.wait_group is injected in around line 29 by compiler "
    "to allow use of registers defined by GMMA in function 'k'"
)
EXTERN_CALL = (
    "ptxas info    : (C7509) Potential Performance Loss: wgmma.mma_async instructions are "
    "serialized due to the presence of Extern calls in the function 'k' in line 30"
)
FUNCTION_REGISTERS = (
    "ptxas info    : (C7512) Potential Performance Loss: wgmma.mma_async instructions are "
    "serialized due to insufficient register resources for the function 'k'"
)
INSUFFICIENT_REGISTERS = (
    "ptxas fatal   : (C7602) Insufficient registers (128) to compile instruction at line 58 "
    "in function k. Try to compile with register target of 154 or higher."
)


def test_codes_and_names_are_unique() -> None:
    assert len(GMMA_MESSAGE_BY_CODE) == len(GMMA_MESSAGES)
    assert len({m.name for m in GMMA_MESSAGES}) == len(GMMA_MESSAGES)


def test_severity_prefixes_are_padded_like_ptxas() -> None:
    assert Severity.INFO.prefix == "ptxas info    : "
    assert Severity.WARNING.prefix == "ptxas warning : "
    assert Severity.FATAL.prefix == "ptxas fatal   : "


def test_format_reproduces_ptxas_lines() -> None:
    assert GmmaDiagnostic(GMMA_MESSAGE_BY_CODE[7517], "k", 29).format() == WAIT_INJECTED
    assert GmmaDiagnostic(GMMA_MESSAGE_BY_CODE[7509], "k", 30).format() == EXTERN_CALL
    assert (
        GmmaDiagnostic(GMMA_MESSAGE_BY_CODE[7512], "k").format() == FUNCTION_REGISTERS
    )
    assert (
        GmmaDiagnostic(GMMA_MESSAGE_BY_CODE[7602], "k", 58, (128, 154)).format()
        == INSUFFICIENT_REGISTERS
    )


def test_parse_reads_code_function_line_and_counts() -> None:
    assert parse_line(WAIT_INJECTED) == GmmaDiagnostic(
        GMMA_MESSAGE_BY_CODE[7517], "k", 29
    )
    assert parse_line(FUNCTION_REGISTERS) == GmmaDiagnostic(
        GMMA_MESSAGE_BY_CODE[7512], "k", None
    )
    parsed = parse_line(INSUFFICIENT_REGISTERS)
    assert parsed is not None
    assert (parsed.key, parsed.counts) == ((7602, "k", 58), (128, 154))


def test_every_message_round_trips() -> None:
    for message in GMMA_MESSAGES:
        template = message.template
        diagnostic = GmmaDiagnostic(
            message,
            function="_Z6kernelPf" if "{function}" in template else None,
            line=42 if "{line}" in template else None,
            counts=(96, 64) if "{0}" in template else (),
        )
        assert parse_line(diagnostic.format()) == diagnostic


def test_other_ptxas_lines_are_not_gmma_diagnostics() -> None:
    text = "\n".join(
        [
            "ptxas info    : 0 bytes gmem",
            "ptxas info    : (C7504) Potential Performance Loss: 'setmaxnreg' ignored to "
            "maintain compatibility across compilation units.",
            "ptxas fatal   : Unresolved extern function 'ext'",
            WAIT_INJECTED,
            EXTERN_CALL,
        ]
    )
    assert [d.key for d in parse_ptxas_output(text)] == [
        (7517, "k", 29),
        (7509, "k", 30),
    ]


def test_changed_wording_of_a_known_code_is_an_error() -> None:
    with pytest.raises(ValueError, match="C7517 line does not match"):
        parse_line(WAIT_INJECTED.replace("is injected", "was injected"))


def test_unobserved_messages_say_so() -> None:
    assert {m.code for m in GMMA_MESSAGES if not m.observed} == {7516, 7407}
