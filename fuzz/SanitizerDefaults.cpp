//===- SanitizerDefaults.cpp - sanitizer options of the sanitizer build ----===//
//
// Compiled into every executable of the sanitizer build (TILEGEN_SANITIZE / TILEGEN_FUZZ, added
// by the top-level CMakeLists.txt), so that the tools behave the same under lit, under
// scripts/fuzz.sh and when a finding is replayed by hand. $ASAN_OPTIONS, $UBSAN_OPTIONS and
// $LSAN_OPTIONS still override these.
//
//===----------------------------------------------------------------------===//

extern "C" {

const char *__asan_default_options() {
  // allow_user_poisoning=0: compiled with ASan, the BumpPtrAllocator of LLVM's headers
  // (Allocator.h, inlined into our code) poisons each new slab and unpoisons what it hands out;
  // libLLVM and libMLIR are not instrumented and allocate from the same slabs (MLIR's
  // StorageUniquer) without unpoisoning, so each of their allocations would be reported as a
  // use-after-poison. The slabs themselves come from malloc and stay checked.
  //
  // abort_on_error=1 (tools only): a report ends the process with SIGABRT, not exit status 1,
  // so a lit test that expects a failure (`not %tilegen ...`) cannot pass on a sanitizer's
  // report. libFuzzer handles reports itself.
  //
  // Leak detection stays on (the default): the tools free what they allocate before exit, and
  // the lit suite runs without a leak report and without suppressions.
  return "allow_user_poisoning=0:strict_string_checks=1:detect_stack_use_after_return=1:"
         "check_initialization_order=1"
#ifndef TILEGEN_SANITIZER_DEFAULTS_LIBFUZZER
         ":abort_on_error=1"
#endif
      ;
}

const char *__ubsan_default_options() {
  return "print_stacktrace=1"
#ifndef TILEGEN_SANITIZER_DEFAULTS_LIBFUZZER
         ":abort_on_error=1"
#endif
      ;
}

} // extern "C"
