"""`#nvvm.target` and the traits that gate ops on the target's SM.

Upstream MLIR reads targets from `gpu.module @m [#nvvm.target<...>]`. xDSL's `gpu.module`
has no target list, so here a module declares its target with the discardable attribute
`nvvm.target` on any enclosing op (usually `builtin.module` or `gpu.module`), holding one
`#nvvm.target<...>` or an array of them. mlir-opt accepts the same attribute, so the IR
stays exchangeable:

    builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} { ... }

The nearest enclosing op that carries `nvvm.target` decides. An op with a `RequiresSM...`
trait is checked against every target listed there whose `verifyTarget` is true, and is
rejected in upstream's words: `'nvvm.wgmma.fence.aligned' op is not supported on sm_80`.
Ops outside any such op are not checked, as upstream does outside a `gpu.module`.

MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/#nvvmtarget
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    ModuleOp,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nvvm.attrs import accept_qualified_name
from tileas_py.hw.arch import Arch, ArchVariant

TARGET_ATTR_NAME = "nvvm.target"
"""The discardable attribute through which an op declares the NVVM targets of its body."""

_DEFAULT_O = 2
_DEFAULT_TRIPLE = "nvptx64-nvidia-cuda"
_DEFAULT_CHIP = "sm_50"
_DEFAULT_FEATURES = "+ptx60"
_MIN_SM = 20


@irdl_attr_definition
class NVVMTargetAttr(ParametrizedAttribute):
    """An NVIDIA compilation target: `#nvvm.target<chip = "sm_90a", features = "+ptx80">`.

    Parameters left at upstream's defaults (O = 2, triple = "nvptx64-nvidia-cuda",
    chip = "sm_50", features = "+ptx60", verifyTarget = true) are not printed.
    """

    name = "nvvm.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    features: StringAttr
    flags: DictionaryAttr | NoneAttr
    link: ArrayAttr[Attribute] | NoneAttr
    verify_target: IntAttr

    def __init__(
        self,
        chip: str = _DEFAULT_CHIP,
        *,
        opt_level: int = _DEFAULT_O,
        triple: str = _DEFAULT_TRIPLE,
        features: str = _DEFAULT_FEATURES,
        flags: DictionaryAttr | None = None,
        link: ArrayAttr[Attribute] | None = None,
        verify_target: bool = True,
    ) -> None:
        super().__init__(
            IntAttr(opt_level),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            NoneAttr() if flags is None else flags,
            NoneAttr() if link is None else link,
            IntAttr(int(verify_target)),
        )

    @property
    def arch(self) -> Arch | None:
        return Arch.parse(self.chip.data)

    @property
    def verifies_target(self) -> bool:
        return bool(self.verify_target.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        accept_qualified_name(parser, cls.name)
        fields: dict[str, Attribute] = {
            "O": IntAttr(_DEFAULT_O),
            "triple": StringAttr(_DEFAULT_TRIPLE),
            "chip": StringAttr(_DEFAULT_CHIP),
            "features": StringAttr(_DEFAULT_FEATURES),
            "flags": NoneAttr(),
            "link": NoneAttr(),
            "verifyTarget": IntAttr(1),
        }
        seen: set[str] = set()

        def parse_field() -> None:
            key_pos = parser.pos
            key = parser.parse_identifier()
            if key not in fields:
                parser.raise_error(f"unknown #nvvm.target parameter '{key}'", key_pos)
            if key in seen:
                parser.raise_error(f"duplicate #nvvm.target parameter '{key}'", key_pos)
            seen.add(key)
            parser.parse_punctuation("=")
            if key == "O":
                fields[key] = IntAttr(parser.parse_integer(allow_boolean=False))
            elif key in ("triple", "chip", "features"):
                fields[key] = StringAttr(parser.parse_str_literal())
            elif key == "flags":
                value = parser.parse_attribute()
                if not isinstance(value, DictionaryAttr):
                    parser.raise_error("expected a dictionary for 'flags'")
                fields[key] = value
            elif key == "link":
                value = parser.parse_attribute()
                if not isinstance(value, ArrayAttr):
                    parser.raise_error("expected an array for 'link'")
                fields[key] = value
            else:
                fields[key] = IntAttr(int(parser.parse_boolean()))

        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_field)
            parser.parse_punctuation(">")
        return tuple(fields.values())

    def print_parameters(self, printer: Printer) -> None:
        fields: list[str] = []
        if self.opt_level.data != _DEFAULT_O:
            fields.append(f"O = {self.opt_level.data}")
        for key, value, default in (
            ("triple", self.triple.data, _DEFAULT_TRIPLE),
            ("chip", self.chip.data, _DEFAULT_CHIP),
            ("features", self.features.data, _DEFAULT_FEATURES),
        ):
            if value != default:
                fields.append(f'{key} = "{value}"')
        if (
            not fields
            and isinstance(self.flags, NoneAttr)
            and isinstance(self.link, NoneAttr)
            and self.verifies_target
        ):
            return
        printer.print_string("<" + ", ".join(fields))
        separator = ", " if fields else ""
        if isinstance(self.flags, DictionaryAttr):
            printer.print_string(f"{separator}flags = ")
            printer.print_attribute(self.flags)
            separator = ", "
        if isinstance(self.link, ArrayAttr):
            printer.print_string(f"{separator}link = ")
            printer.print_attribute(self.link)
            separator = ", "
        if not self.verifies_target:
            printer.print_string(f"{separator}verifyTarget = false")
        printer.print_string(">")

    def verify(self) -> None:
        if not 0 <= self.opt_level.data <= 3:
            raise VerifyException(
                "The optimization level must be a number between 0 and 3."
            )
        if not self.triple.data:
            raise VerifyException("The target triple cannot be empty.")
        if not self.chip.data:
            raise VerifyException("The target chip cannot be empty.")
        if isinstance(self.link, ArrayAttr) and not all(
            isinstance(f, StringAttr) for f in self.link.data
        ):
            raise VerifyException(
                "All the elements in the `link` array must be strings."
            )
        arch = self.arch
        if arch is None or arch.version < _MIN_SM:
            raise VerifyException(f"Minimum NVVM target SM version is sm_{_MIN_SM}")


# The first PTX ISA version that knows each SM (PTX ISA release notes).
_FIRST_ISA = {
    75: (6, 3),
    80: (7, 0),
    86: (7, 1),
    87: (7, 4),
    89: (7, 8),
    90: (7, 8),
    100: (8, 6),
    101: (8, 6),
    103: (8, 8),
    110: (9, 0),
    120: (8, 7),
    121: (8, 8),
}
# The arch- and family-conditional variants came later than their SM.
_FIRST_CONDITIONAL_ISA = {
    (90, ArchVariant.ARCH_CONDITIONAL): (8, 0),
    (100, ArchVariant.FAMILY_CONDITIONAL): (8, 8),
    (101, ArchVariant.FAMILY_CONDITIONAL): (8, 8),
    (120, ArchVariant.FAMILY_CONDITIONAL): (8, 8),
}
_FEATURE = re.compile(r"\+ptx(\d)(\d+)")


def requested_ptx_version(features: str) -> tuple[int, int] | None:
    """The PTX ISA version a target's features ask for (the highest `+ptxNN`); None when
    they name none or are upstream's default `+ptx60`, which asks for nothing in
    particular (`ptx_version` then writes the chip's first ISA)."""
    if features == _DEFAULT_FEATURES:
        return None
    versions = [(int(m.group(1)), int(m.group(2))) for m in _FEATURE.finditer(features)]
    return max(versions) if versions else None


def ptx_version(arch: Arch, features: str) -> str:
    """The `.version` for a target: its `+ptxNN` feature, at least the chip's first ISA."""
    first = _FIRST_CONDITIONAL_ISA.get(
        (arch.version, arch.variant), _FIRST_ISA.get(arch.version, (8, 0))
    )
    requested = (0, 0)
    for match in _FEATURE.finditer(features):
        requested = max(requested, (int(match.group(1)), int(match.group(2))))
    major, minor = max(first, requested)
    return f"{major}.{minor}"


def require_ptx(op: Operation, version: int) -> None:
    """Raise the `+ptxNN` feature of the enclosing module's `nvvm.target` to `version`."""
    module = op.get_toplevel_object()
    if not isinstance(module, ModuleOp):
        return
    target = module.attributes.get(TARGET_ATTR_NAME)
    if not isinstance(target, NVVMTargetAttr):
        return
    features = target.features.data
    match = re.search(r"\+ptx(\d+)", features)
    if match is not None and int(match.group(1)) >= version:
        return
    if match is not None:
        features = features.replace(match.group(0), f"+ptx{version}")
    else:
        features = ",".join(f for f in (features, f"+ptx{version}") if f)
    module.attributes[TARGET_ATTR_NAME] = NVVMTargetAttr(
        target.chip.data,
        opt_level=target.opt_level.data,
        triple=target.triple.data,
        features=features,
        flags=target.flags if isinstance(target.flags, DictionaryAttr) else None,
        link=target.link if isinstance(target.link, ArrayAttr) else None,
        verify_target=target.verifies_target,
    )


def declared_targets(op: Operation) -> tuple[NVVMTargetAttr, ...]:
    """The NVVM targets declared by the nearest enclosing op that has `nvvm.target`, or
    by the nearest `gpu.module` with upstream's target list."""
    parent = op.parent_op()
    while parent is not None:
        declared = parent.attributes.get(TARGET_ATTR_NAME)
        listed = (
            parent.properties.get("targets") if parent.name == "gpu.module" else None
        )
        if declared is None and isinstance(listed, ArrayAttr):
            declared = cast(ArrayAttr[Attribute], listed)
        if isinstance(declared, NVVMTargetAttr):
            return (declared,)
        if isinstance(declared, ArrayAttr):
            elements = cast(ArrayAttr[Attribute], declared).data
            return tuple(t for t in elements if isinstance(t, NVVMTargetAttr))
        parent = parent.parent_op()
    return ()


def target_archs(op: Operation) -> tuple[Arch, ...]:
    """The SMs `op` will run on, from the targets that ask for SM verification."""
    return tuple(
        arch
        for target in declared_targets(op)
        if target.verifies_target and (arch := target.arch) is not None
    )


class TargetSMTrait(OpTrait):
    """Rejects an op inside a module whose target SM lacks the op's feature."""

    def supports(self, arch: Arch) -> bool:
        raise NotImplementedError()

    def describe(self) -> str:
        """The targets the op runs on, for docs/nvvm-coverage.md."""
        raise NotImplementedError()

    def verify(self, op: Operation) -> None:
        for arch in target_archs(op):
            if not self.supports(arch):
                raise VerifyException(f"is not supported on {arch}")


@dataclass(frozen=True)
class RequiresSM(TargetSMTrait):
    """Upstream's `NVVMRequiresSM<N>`: any target of SM N or later."""

    min_version: int

    def supports(self, arch: Arch) -> bool:
        return arch.version >= self.min_version

    def describe(self) -> str:
        return f"sm_{self.min_version}+"


@dataclass(frozen=True)
class RequiresSMa(TargetSMTrait):
    """Upstream's `NVVMRequiresSMa<[N, ...]>`: exactly one of these arch-conditional
    targets (`sm_90a` for WGMMA); the plain and family variants do not qualify."""

    versions: tuple[int, ...]

    def supports(self, arch: Arch) -> bool:
        return arch.is_arch_conditional and arch.version in self.versions

    def describe(self) -> str:
        return ", ".join(f"sm_{v}a" for v in self.versions)


@dataclass(frozen=True)
class RequiresSMf(TargetSMTrait):
    """Upstream's `NVVMRequiresSMf<[N, ...]>`: a family-conditional target of one of these
    families, or an arch-conditional target of one of them (which includes the family)."""

    versions: tuple[int, ...]

    def supports(self, arch: Arch) -> bool:
        return (
            arch.is_family_conditional or arch.is_arch_conditional
        ) and arch.version in self.versions

    def describe(self) -> str:
        return ", ".join(f"sm_{v}f" for v in self.versions)
