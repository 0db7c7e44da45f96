//===- Mutate.h - planted synchronisation bugs for the protocol checker -----------------===//
//
// Each mutation kind edits one statement of the PTX text (a site), keeping every other line
// where it was, so that the checker's witness cites the same line numbers as the file. The
// edited PTX stays valid PTX (ptxas accepts it), so a planted bug can also be run on a GPU.
//
//===--------------------------------------------------------------------------------------===//

#ifndef TILEGEN_VERIFY_MUTATE_H
#define TILEGEN_VERIFY_MUTATE_H

#include "tilegen/Verify/PTX.h"

#include <optional>

namespace tilegen::verify {

enum class MutationKind {
  DropFence,       ///< remove a fence.proxy.async
  DropArrive,      ///< remove an mbarrier arrive, a tcgen05.commit, a barrier arrive or bar.sync
  FlipParity,      ///< wait for the other parity in an mbarrier try_wait/test_wait
  ExpectTx,        ///< announce 16 more transaction bytes in an expect_tx
  ShrinkInit,      ///< initialise an mbarrier with one arrival fewer
  SwapWaitRelease, ///< move a wait (wait_group, wait::ld) after the release that follows it
  DropWaitGroup,   ///< remove a wgmma / cp.async / cp.async.bulk wait_group
  DropWarpSync,    ///< remove a bar.warp.sync (the lanes' memory ordering within a warp)
};

/// The names used on the command line: drop-fence, drop-arrive, flip-parity, expect-tx,
/// shrink-init, swap-wait-release, drop-wait-group.
std::optional<MutationKind> parseMutationKind(llvm::StringRef name);
llvm::StringRef mutationName(MutationKind kind);
std::vector<MutationKind> allMutationKinds();

struct MutationSite {
  unsigned stmt = 0;  ///< the statement edited
  unsigned other = 0; ///< SwapWaitRelease: the release the wait moves after
};

/// Statements of `kernel` where `kind` applies, in text order.
std::vector<MutationSite> mutationSites(const Kernel &kernel, MutationKind kind);

/// The PTX with the mutation applied at `site`; `what` receives a one-line description.
std::string applyMutation(llvm::StringRef text, const Kernel &kernel, MutationKind kind,
                          const MutationSite &site, std::string &what);

} // namespace tilegen::verify

#endif // TILEGEN_VERIFY_MUTATE_H
