"""The pieces of `convert-nvvm-to-ori`, one module per op family.

`module` drives the conversion of a module, `function` holds the state of one function
(registers, lowered values, blocks), and `arith`, `memory`, `control_flow`, `nvvm_ops`,
`wgmma`, `tcgen05` and `inline_asm` register the lowering of each op they handle in `registry`.
"""
