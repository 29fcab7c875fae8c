// RUN: not tileas-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not tileas-opt %s -p 'canonicalize{no-such-option=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not tileas-opt %s -p 'canonicalize{' 2>&1 | filecheck %s --check-prefix=SPEC
// RUN: not tileas-opt %s -t no-such-target 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not tileas-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not tileas-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not tileas-opt %S/Inputs 2>&1 | filecheck %s --check-prefix=DIRECTORY
// RUN: not tileas-opt %S/Inputs/not-utf8.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: cp %S/Inputs/valid.mlir %t.txt && not tileas-opt %t.txt 2>&1 | filecheck %s --check-prefix=EXTENSION

func.func @f() {
  func.return
}

// PASS: tileas-opt: error: Unrecognized passes: ['no-such-pass']
// OPTION: tileas-opt: error: {{.*}}no_such_option
// SPEC: tileas-opt: error: Error parsing pass pipeline specification
// TARGET: tileas-opt: error: argument -t/--target: invalid choice: 'no-such-target'
// FLAG: tileas-opt: error: unrecognized arguments: --no-such-flag
// MISSING: tileas-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// DIRECTORY: tileas-opt: error: cannot open input file '{{.*}}Inputs': Is a directory
// UTF8: not-utf8.mlir:3:3: error: input is not valid UTF-8 text
// EXTENSION: tileas-opt: error: {{.*}}.txt: Unrecognized file extension 'txt'
