"""Dispatch tables (docs/dispatch.md): one kernel per problem size, picked in Python."""

import json
import math
import os

from . import _kernel
from ._errors import ArgumentError, ManifestError
from ._kernel import load, view_of
from ._manifest import (BLOCK_SCALED_BITS, MAX_DISPATCH_BYTES, TYPE_BITS, cubin_path_of,
                        file_name_ok, parse_json, path_arg, problem_sizes, read_input_file)


class Dispatch:
    """A dispatch table written by `tilegen tune`, callable like a Kernel.

    ``dispatch(a, b, ...)`` picks the kernel for the problem M x N x K = a.shape[0] x
    b.shape[1] x a.shape[1] and calls it; ``pick(m, n, k)`` returns that Kernel. The rule: the
    entry of that size, else the nearest entry by the sum over M, N, K of |log2(x / x_entry)|,
    plus 1 for each of them that is a multiple of 64 in one and not the other (ties: the first
    in the table); its kernel if the problem meets that kernel's constraints,
    else its first candidate that does, else the next nearest entry's; when no ranked kernel
    takes the size as it is (N or K off the 16-byte rule, say), the first of them in that order
    that takes it zero-padded, which ``dispatch(...)`` runs on padded copies of the tensors
    (``pick_padded``); else the first of the table's fallbacks that does.
    """

    def __init__(self, path):
        path = path_arg(path, "path")
        self.path = os.path.abspath(path)
        raw = read_input_file(self.path, "dispatch table", MAX_DISPATCH_BYTES)
        data = parse_json(raw, "dispatch table %s" % path)
        where = "dispatch table %s" % path
        if not isinstance(data, dict) or data.get("format") != "tilegen-dispatch":
            raise ManifestError("%s: field 'format' is not \"tilegen-dispatch\"" % where)
        if type(data.get("version")) is not int or data.get("version") != 1:
            raise ManifestError("%s: version %r is not supported (this package reads version 1)"
                                % (where, data.get("version")))
        self.target = data.get("target")
        if not isinstance(self.target, str):
            raise ManifestError("%s: missing field 'target'" % where)
        folder = os.path.dirname(self.path)
        kernels = data.get("kernels")
        if not isinstance(kernels, list) or not kernels:
            raise ManifestError("%s: field 'kernels' must be a non-empty array" % where)
        self.kernels = {}
        # kernel -> the table's "slice": (mma cycles, issue cycles, L2 bytes per cycle, k,
        # fix-up cycles, split rate), the last two 0 for kernels other than stream-K
        self.slices = {}
        self.order = []
        for i, k in enumerate(kernels):
            if not isinstance(k, dict) or not isinstance(k.get("name"), str) or not isinstance(
                    k.get("manifest"), str):
                raise ManifestError("%s: kernels[%d] needs a 'name' and a 'manifest'" %
                                    (where, i))
            for f in ("manifest", "cubin"):
                if f in k and (not isinstance(k[f], str) or not file_name_ok(k[f])):
                    raise ManifestError("%s: kernels[%d]: \"%s\" is %s: expected a file name, "
                                        "without NUL or other control characters" %
                                        (where, i, f, _shown(k[f])))
            kern = load(os.path.join(folder, k["manifest"]))
            # "cubin" is optional (the manifest names its cubin); when given, it must be the
            # file the manifest describes.
            if "cubin" in k:
                table_cubin = os.path.join(folder, k["cubin"])
                own = cubin_path_of(os.path.join(folder, k["manifest"]), kern.manifest)
                try:
                    same = os.path.samefile(table_cubin, own)
                except OSError as e:
                    raise ManifestError("%s: kernel %s: cannot read \"cubin\" %s: %s" %
                                        (where, k.get("name"), table_cubin, e.strerror or e))
                if not same:
                    raise ManifestError("%s: kernel %s: \"cubin\" is %s, but its manifest "
                                        "describes %s; a table names each kernel's own cubin"
                                        % (where, k.get("name"), table_cubin, own))
            if kern.target != self.target:
                raise ManifestError("%s: kernel %s is for %s, the table for %s" %
                                    (where, k["name"], kern.target, self.target))
            if kern.name != k["name"]:
                raise ManifestError("%s: kernels[%d] is named %s but its manifest has kernel %s"
                                    % (where, i, k["name"], kern.name))
            if k["name"] in self.kernels:
                raise ManifestError("%s: kernel %s is listed twice" % (where, k["name"]))
            # "slice": the kernel's K-slice in the model's cycles (optional; tune writes it).
            if "slice" in k:
                sl = k["slice"]
                if not isinstance(sl, dict):
                    raise ManifestError("%s: kernels[%d]: \"slice\" must be an object "
                                        "(mma_cycles, issue_cycles, l2_bytes_per_cycle)" %
                                        (where, i))
                terms = []
                for f, lo in (("mma_cycles", 0), ("issue_cycles", -1),
                              ("l2_bytes_per_cycle", 0)):
                    x = sl.get(f)
                    if (not isinstance(x, (int, float)) or isinstance(x, bool) or
                            not lo < x <= 1e9 or (lo < 0 and x < 0)):
                        raise ManifestError("%s: kernels[%d]: \"slice\": \"%s\" must be a "
                                            "number %s to 1e9, found %s" %
                                            (where, i, f, "from 0" if lo < 0 else "above 0",
                                             _shown(x) if f in sl else "nothing"))
                    terms.append(float(x))
                kk = sl.get("k")
                if type(kk) is not int or not 1 <= kk <= 65536:
                    raise ManifestError("%s: kernels[%d]: \"slice\": \"k\" must be an integer "
                                        "from 1 to 65536 (the tile's K), found %s" %
                                        (where, i, _shown(kk) if "k" in sl else "nothing"))
                terms.append(kk)
                # Stream-K kernels: the fix-up of a partial tile and the split's rate, both or
                # neither.
                fix, eff = 0.0, 0.0
                if "fixup_cycles" in sl or "split_efficiency" in sl:
                    fix, eff = sl.get("fixup_cycles"), sl.get("split_efficiency")
                    if (not isinstance(fix, (int, float)) or isinstance(fix, bool) or
                            not 0 <= fix <= 1e9):
                        raise ManifestError(
                            "%s: kernels[%d]: \"slice\": \"fixup_cycles\" must be a number "
                            "from 0 to 1e9 beside \"split_efficiency\", found %s" %
                            (where, i, _shown(fix) if "fixup_cycles" in sl else "nothing"))
                    if (not isinstance(eff, (int, float)) or isinstance(eff, bool) or
                            not 0 < eff <= 1):
                        raise ManifestError(
                            "%s: kernels[%d]: \"slice\": \"split_efficiency\" must be a "
                            "number above 0 and at most 1 beside \"fixup_cycles\", found %s" %
                            (where, i, _shown(eff) if "split_efficiency" in sl else "nothing"))
                terms += [float(fix), float(eff)]
                self.slices[k["name"]] = tuple(terms)
            self.kernels[k["name"]] = kern
            self.order.append(k["name"])
        # One D for every pick: torch.compile's graphs need its dtype and layout up front.
        first = self.kernels[self.order[0]].manifest
        for name, kern in self.kernels.items():
            m = kern.manifest
            if (m.c.type, m.c.layout) != (first.c.type, first.c.layout):
                raise ManifestError("%s: kernel %s writes D as %r, kernel %s as %r; a table's "
                                    "kernels must agree" % (where, name, m.c, self.order[0],
                                                            first.c))
        fallbacks = data.get("fallbacks", [])
        if not isinstance(fallbacks, list) or not all(isinstance(f, str) for f in fallbacks):
            raise ManifestError("%s: \"fallbacks\" must be an array of kernel names" % where)
        for i, f in enumerate(fallbacks):
            if f not in self.kernels:
                raise ManifestError("%s: fallbacks[%d] names kernel %r, which is not in "
                                    "'kernels'" % (where, i, f))
            if f in fallbacks[:i]:
                raise ManifestError("%s: fallbacks[%d]: kernel %r is listed twice (also "
                                    "fallbacks[%d])" % (where, i, f, fallbacks.index(f)))
        self.fallbacks = list(fallbacks)
        entries = data.get("entries")
        if not isinstance(entries, list) or not entries:
            raise ManifestError("%s: field 'entries' must be a non-empty array" % where)
        self.entries = []
        seen_sizes = {}  # size -> the index of its entry (duplicates are found in linear time)
        self.times = []  # per entry: {kernel: ns}, measured when any was, else predicted
        self.cand_order = []  # per entry: its candidates' names in the table's order
        self.failures = []  # per entry: {kernel: why its run failed}
        self.sm_count = data.get("sm_count")
        if self.sm_count is not None and (not isinstance(self.sm_count, int) or isinstance(
                self.sm_count, bool) or not 1 <= self.sm_count <= 65535):
            raise ManifestError("%s: \"sm_count\" must be an integer from 1 to 65535, found %r"
                                % (where, self.sm_count))
        self.quad_cluster_ctas = data.get("quad_cluster_ctas")
        q = self.quad_cluster_ctas
        if q is not None and (not isinstance(q, int) or isinstance(q, bool) or not 4 <= q <= 65535
                              or q % 4 != 0 or (self.sm_count and q > self.sm_count)):
            raise ManifestError("%s: \"quad_cluster_ctas\" must be a multiple of 4 from 4 to "
                                "sm_count, found %r" % (where, q))
        self.launch_ns = data.get("launch_ns", 0)
        if (not isinstance(self.launch_ns, (int, float)) or isinstance(self.launch_ns, bool)
                or not 0 <= self.launch_ns <= 1e9):
            raise ManifestError("%s: \"launch_ns\" must be a time in ns from 0 to 1e9, found %r"
                                % (where, self.launch_ns))
        for i, e in enumerate(entries):
            cands = e.get("candidates", []) if isinstance(e, dict) else None
            if (not isinstance(e, dict) or not all(d in e for d in ("m", "n", "k", "kernel"))
                    or not isinstance(cands, list) or
                    not all(isinstance(c, dict) and "kernel" in c for c in cands)):
                raise ManifestError("%s: entries[%d] needs m, n, k, kernel and candidates of "
                                    "{kernel}" % (where, i))
            for d in ("m", "n", "k"):
                v = e[d]
                if type(v) is not int or not 1 <= v <= 2**31 - 1:
                    raise ManifestError("%s: entries[%d]: \"%s\" is %s: expected an integer "
                                        "from 1 to %d" % (where, i, d, _shown(v), 2**31 - 1))
            size = (e["m"], e["n"], e["k"])
            names = [e["kernel"]] + [c["kernel"] for c in cands]
            for j, n in enumerate(names):
                if not isinstance(n, str):
                    raise ManifestError("%s: entries[%d]: %s is %s: expected a kernel name "
                                        "(a string)" % (where, i, "\"kernel\"" if j == 0 else
                                                        "candidates[%d].kernel" % (j - 1),
                                                        _shown(n)))
            for n in names:
                if n not in self.kernels:
                    raise ManifestError("%s: entries[%d] names kernel %r, which is not in "
                                        "'kernels'" % (where, i, n))
            # One entry per size (a second would never be picked), and the chosen kernel is
            # one of the candidates it was chosen from, when the entry lists any.
            if size in seen_sizes:
                j = seen_sizes[size]
                raise ManifestError("%s: entries[%d]: size %d x %d x %d (kernel %s) has an "
                                    "entry already: entries[%d] (kernel %s); a table has "
                                    "one entry per size"
                                    % ((where, i) + size + (names[0], j, self.entries[j][1][0])))
            seen_sizes[size] = len(self.entries)
            for c in range(2, len(names)):
                if names[c] in names[1:c]:
                    raise ManifestError("%s: entries[%d]: candidates[%d]: kernel %s is listed "
                                        "twice (also candidates[%d])"
                                        % (where, i, c - 1, names[c], names[1:c].index(names[c])))
            if len(names) > 1 and names[0] not in names[1:]:
                raise ManifestError("%s: entries[%d]: \"kernel\" %s is not among the entry's "
                                    "\"candidates\" (the kernels it was chosen from)"
                                    % (where, i, names[0]))
            # A candidate whose run failed ("measurement": why) is never picked from its
            # entry; one that failed other than by being skipped, nothing near it.
            failed = {}
            for j, c in enumerate(cands):
                if "measurement" in c:
                    if not isinstance(c["measurement"], str) or not file_name_ok(
                            c["measurement"]):
                        raise ManifestError("%s: entries[%d]: candidates[%d]: \"measurement\" "
                                            "must be a non-empty string without control "
                                            "characters (why the candidate's run failed)"
                                            % (where, i, j))
                    if c["kernel"] == names[0]:
                        raise ManifestError("%s: entries[%d]: candidates[%d]: kernel %s is the "
                                            "entry's \"kernel\" but its run failed "
                                            "(\"measurement\": %s)"
                                            % (where, i, j, names[0], _shown(c["measurement"])))
                    failed[c["kernel"]] = c["measurement"]
            order = []
            for n in names:
                if n not in order and n not in failed:
                    order.append(n)
            self.entries.append((size, order))
            # The candidates in the table's order (the scaled rule's, on ties as tilegen-run).
            self.cand_order.append([c["kernel"] for c in cands] or [names[0]])
            self.failures.append(failed)
            self.times.append(_entry_times(e, where, i))
        self._memo = {}
        self._op_id = _kernel.register(self, "dispatch:")

    def __repr__(self):
        return "<tilegen.Dispatch %s: %d kernels, %d entries, %s>" % (
            self.path, len(self.kernels), len(self.entries), self.target)

    def pick(self, m, n, k):
        """The Kernel for M x N x K; ArgumentError when no kernel of the table can run it."""
        return self.pick_padded(m, n, k)[0]

    def pick_padded(self, m, n, k):
        """(kernel, padded) for M x N x K: padded is None when the kernel runs the size as it
        is, else the zero-padded (M, N, K) it runs in its place."""
        key = problem_sizes(m, n, k)
        m, n, k = key
        choice = self._memo.get(key)
        if choice is not None:
            return choice
        if min(key) < 1:
            raise ArgumentError("problem size %d x %d x %d: M, N and K must be at least 1" % key)
        lx = [math.log2(x) for x in key]

        def dist(entry):
            return sum(abs(a - math.log2(y)) + ((x % 64 == 0) != (y % 64 == 0))
                       for x, a, y in zip(key, lx, entry[0]))

        ranked = sorted(range(len(self.entries)), key=lambda i: dist(self.entries[i]))
        # Kernels whose run failed at the nearest entry (not by being skipped) run nothing
        # near it.
        excluded = {n for n, why in self.failures[ranked[0]].items() if why != "skipped"}
        order = []
        for i in ranked:
            order += [name for name in self.entries[i][1]
                      if name not in order and name not in excluded]
        why = ["%s: its run at the nearest entry %d x %d x %d failed (%s)"
               % ((n,) + self.entries[ranked[0]][0] + (self.failures[ranked[0]][n],))
               for n in self.failures[ranked[0]] if n in excluded]

        def choose(kern, padded):
            if len(self._memo) < 4096:
                self._memo[key] = (kern, padded)
            return kern, padded

        if self.sm_count and self.entries[ranked[0]][0] != key:
            picked = self._pick_scaled(key, ranked, dist, excluded)
            if picked is not None:
                return choose(*picked)

        for name in order:
            errors = self.kernels[name].problem_errors(m, n, k)
            if not errors:
                return choose(self.kernels[name], None)
            why.append("%s: %s" % (name, "; ".join(errors)))
        for name in order:
            man = self.kernels[name].manifest
            padded, reason = man.padded_problem(m, n, k)
            if padded is not None and padded != key:
                errors = man.problem_errors(*padded)
                if not errors:
                    return choose(self.kernels[name], padded)
                reason = "; ".join(errors)
            if reason:
                why.append("%s (padded): %s" % (name, reason))
        for name in self.fallbacks:
            if name in order or name in excluded:
                continue
            errors = self.kernels[name].problem_errors(m, n, k)
            if not errors:
                return choose(self.kernels[name], None)
            why.append("%s: %s" % (name, "; ".join(errors)))
        raise ArgumentError("dispatch table %s: no kernel can run %d x %d x %d:\n  %s" %
                            (self.path, m, n, k, "\n  ".join(why)))

    def _wave_work(self, name, size):
        """What a kernel's time at a size is taken to be proportional to (tilegen-run's
        waveWork, docs/dispatch.md): with slice terms the busiest CTA's cycles, else waves of
        tiles times one tile's work."""
        man = self.kernels[name].manifest
        m, n, k = size
        tiles_m, tiles_n = -(-m // man.tile_m), -(-n // man.tile_n)
        tiles = float(tiles_m * tiles_n)
        c = man.cluster_size
        slots = float(max(c, (self.sm_count * man.ctas_per_sm) // c * c))
        # Clusters of 4 fit fewer CTAs than the SMs where the table says so (the launcher's cap).
        if c == 4 and self.quad_cluster_ctas:
            slots = min(slots, float(self.quad_cluster_ctas * man.ctas_per_sm))
        full = math.floor(tiles / slots)
        rest = tiles - full * slots
        # Rounds of whole tiles: units of a cluster's X x Y tiles over the clusters that fit.
        cx, cy = man.cluster_tiles
        rounds = math.ceil((-(-tiles_m // cx)) * (-(-tiles_n // cy)) / (slots / c))
        sl = self._slice_cycles(name, size)
        if sl:
            _, _, _, tk, fixup, eff = self.slices[name]
            kt = float(-(-k // tk))
            if man.grid_rule != "stream_k":
                return rounds * kt * sl
            if rest == 0:
                return full * kt * sl
            # StreamK.cpp's rule: a tile over at most min(max(kTiles / 8, 1), 16) CTAs; with
            # no full wave every tile in min(floor(slots / tiles), split) parts when that is
            # two or more; after full waves the tail over min(slots, tail x split) CTAs when
            # that is at least 10/9 CTAs a tile and the tail at most half a wave.
            split = min(max(math.floor(kt / 8), 1.0), 16.0)
            spread = (rest * min(math.floor(slots / rest), split) if full == 0 else
                      min(slots, rest * split))
            if not (spread * 9 >= rest * 10 and
                    (spread >= 2 * rest if full == 0 else 2 * rest <= slots)):
                return (full + 1) * kt * sl
            r = rest * kt
            chunk = r / spread
            parts = kt / chunk
            aligned = math.fmod(r, spread) == 0 and math.fmod(kt, chunk) == 0
            ways = min(spread, parts if aligned else math.ceil(parts) + 1)
            return (full * kt * sl + math.ceil(r / spread) * sl / (eff if eff > 0 else 1.0) +
                    ways * fixup)
        if man.grid_rule == "stream_k" and 0 < rest and 2 * rest <= slots:
            # A split tail: with no full wave 1 / floor(slots / tiles) of a wave (16 ways at
            # most), after full waves its share of the slots.
            waves = 1.0 / min(math.floor(slots / rest), 16) if full == 0 else full + rest / slots
        else:
            waves = rounds
        return waves * man.tile_m * man.tile_n * k

    def _slice_cycles(self, name, size):
        """The kernel's K-slice time at size in the model's cycles, or None (tilegen-run's
        sliceCycles): max(tensor core, issue + its A and B boxes from L2 at size's line
        factors)."""
        terms = self.slices.get(name)
        if terms is None:
            return None
        mma, issue, l2bw = terms[:3]
        m, n, k = size
        extent = {"M": m, "N": n, "K": k}
        l2 = 0.0
        for p in self.kernels[name].manifest.data.get("params", []):
            if not isinstance(p, dict) or p.get("kind") != "tensormap" or \
                    p.get("tensor") not in ("A", "B"):
                continue
            box, dims = p.get("box"), p.get("dims")
            bits = dict(TYPE_BITS, **BLOCK_SCALED_BITS).get(p.get("elem"))
            if (not bits or not isinstance(box, list) or not isinstance(dims, list) or
                    not box or len(box) != len(dims) or dims[0] not in extent or
                    not all(type(x) is int and x > 0 for x in box)):
                continue
            l2 += bits / 8.0 * math.prod(box) * _line_factor(extent[dims[0]] * bits // 8,
                                                             box[0] * bits // 8)
        return max(mma, issue + l2 / l2bw)

    def _pick_scaled(self, key, ranked, dist, excluded):
        """(kernel, padded) with the least time scaled from the near entries, or None."""
        d0 = dist(self.entries[ranked[0]])
        for padded in (False, True):
            best = None
            for i in ranked[:3]:
                size = self.entries[i][0]
                if dist(self.entries[i]) > d0 + 1.0:
                    break
                for name in self.cand_order[i]:
                    t = self.times[i].get(name)
                    if t is None or name in excluded:
                        continue
                    man = self.kernels[name].manifest
                    run = key
                    if not padded:
                        if man.problem_errors(*key):
                            continue
                    else:
                        run, _ = man.padded_problem(*key)
                        if run is None or run == key or man.problem_errors(*run):
                            continue
                    launch = min(self.launch_ns, 0.9 * t)
                    est = launch + (t - launch) * self._wave_work(name, run) / \
                        self._wave_work(name, size)
                    if best is None or est < best[0]:
                        best = (est, name, run if padded else None)
            if best is not None:
                return self.kernels[best[1]], best[2]
        return None

    def out_spec(self):
        return self.kernels[self.order[0]].out_spec()

    def __call__(self, a, b, out=None, c=None, alpha=None, beta=None, stream=None, scale_a=None,
                 scale_b=None):
        # alpha None means 1 and beta None 0; None defaults, unlike float ones, stay constants
        # when torch.compile traces with dynamic shapes (float defaults become graph inputs).
        if _kernel._compiled_call is not None and _kernel._torch.compiler.is_compiling():
            return _kernel._compiled_call(self._op_id, a, b, out, c, alpha, beta, stream,
                                          scale_a, scale_b)
        return self._launch(a, b, out, c, alpha, beta, stream, scale_a, scale_b)

    def _launch(self, a, b, out, c, alpha, beta, stream, scale_a, scale_b):
        va = view_of(a, "a")
        vb = view_of(b, "b")
        if len(va.shape) != 2 or len(vb.shape) != 2:
            raise ArgumentError("a and b must be 2-D (M x K and K x N); got shapes %s and %s" %
                                (va.shape, vb.shape))
        # Packed e2m1 operands hold two elements per byte along their contiguous dim; the
        # table's kernels share the first one's operand types and layouts.
        m, k = _kernel._logical_shape(va.shape, self.kernels[self.order[0]].manifest.a)
        n = _kernel._logical_shape(vb.shape, self.kernels[self.order[0]].manifest.b)[1]
        kern, padded = self.pick_padded(m, n, k)
        if padded is None:
            return kern._launch(a, b, out, c, alpha, beta, stream, scale_a, scale_b)
        return self._launch_padded(kern, (m, n, k), padded, a, b, out, c, alpha, beta, stream,
                                   scale_a, scale_b)

    def _launch_padded(self, kern, size, padded, a, b, out, c, alpha, beta, stream, scale_a,
                       scale_b):
        """Runs kern on zero-padded copies: A and B padded with zeros (which add nothing to
        the product), C copied into a padded buffer, D computed padded and copied into out.
        Needs torch tensors (the copies are torch's)."""
        torch = _kernel._torch
        T = _kernel._Tensor
        if T is None or not all(isinstance(x, T) for x in (a, b) + tuple(
                x for x in (out, c) if x is not None)):
            raise ArgumentError("dispatch table %s: M x N x K = %d x %d x %d runs on "
                                "zero-padded copies (%d x %d x %d for kernel %s), which need "
                                "torch tensors" % ((self.path,) + tuple(size) + tuple(padded) +
                                                   (kern.name,)))
        m, k = a.shape
        n = b.shape[1]
        mp, np_, kp = padded
        man = kern.manifest

        def pad(x, rows, cols, layout, dtype):
            # A zero tensor of the padded shape in the kernel's layout, x copied into its
            # top-left corner.
            shape = (rows, cols) if layout == "row" else (cols, rows)
            p = torch.zeros(shape, dtype=dtype, device=x.device)
            p = p if layout == "row" else p.t()
            p[:x.shape[0], :x.shape[1]].copy_(x)
            return p

        # The copies and the kernel on one stream: the given one, else torch's current one.
        if stream is None:
            ctx = torch.cuda.stream(torch.cuda.current_stream(a.device))
        elif isinstance(stream, int):
            ctx = torch.cuda.stream(torch.cuda.ExternalStream(stream, device=a.device))
        else:
            ctx = torch.cuda.stream(stream)
        with ctx:
            pa = pad(a, mp, kp, man.a.layout, a.dtype)
            pb = pad(b, kp, np_, man.b.layout, b.dtype)
            pc = None if c is None else pad(c, mp, np_, man.c.layout, c.dtype)
            pd = kern._launch(pa, pb, None, pc, alpha, beta, None, scale_a, scale_b)
            if out is None:
                d = pd[:m, :n]
                return d.contiguous() if man.c.layout == "row" else d.t().contiguous().t()
            out.copy_(pd[:m, :n])
        return out


def _line_factor(pitch, span):
    """The 128-byte L2 lines a box row of span bytes touches on average when rows are pitch
    bytes apart (tilegen-run's lineFactor, the pipeline model's)."""
    if not 0 < span <= 128:
        return 1.0
    g = math.gcd(pitch % 128, 128)
    offsets = range(0, 128, g)
    return sum((o + span + 127) // 128 for o in offsets) / float(len(offsets))


def _shown(v):
    """A table's value for a message: JSON text, cut short."""
    try:
        text = json.dumps(v)
    except (ValueError, TypeError, RecursionError):
        text = type(v).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _entry_times(entry, where, i):
    """{kernel: ns} of a table entry's candidates: the measured times when any candidate was
    measured (tune's estimates for the untimed ones beside them), else the model's
    predictions; none for a candidate whose run failed (tilegen-run reads them the same
    way)."""
    measured, predicted, estimated = {}, {}, {}
    for c in entry.get("candidates", []):
        for field, into in (("measured_ns", measured), ("predicted_ns", predicted),
                            ("estimated_ns", estimated)):
            if field not in c:
                continue
            v = c[field]
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 < v <= 1e15:
                raise ManifestError("%s: entries[%d]: %s of %s must be a time in ns above 0 and "
                                    "at most 1e15, found %r" % (where, i, field, c.get("kernel"),
                                                                v))
            if "measurement" not in c:
                into[c["kernel"]] = float(v)
    if measured:
        return dict(estimated, **measured)
    return predicted


def load_dispatch(path):
    """A Dispatch from a table written by `tilegen tune` (its kernels' manifests and cubins are
    read and checked now; each kernel is loaded onto a GPU at its first call)."""
    return Dispatch(path)
