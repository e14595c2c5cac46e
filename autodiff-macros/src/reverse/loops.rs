//! Loops run backwards: plain ones over the same iterations, checkpointed ones by restoring a
//! saved state and re-running an iteration (every iteration, segments of `S`, or Griewank's
//! binomial schedule) before sweeping it.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::Rev;
use crate::ir::*;
use crate::print::range_tokens;
use crate::tape::{Key, Spec};

impl<'a> Rev<'a> {
    /// A loop run backwards over the same iterations; a checkpointed one restores the state
    /// saved before each iteration (or segment) and re-runs it, recording, before sweeping it.
    pub(super) fn for_loop(
        &mut self,
        id: usize,
        var: VarId,
        range: &Range,
        body: &'a Block,
    ) -> TokenStream {
        let id = &id;
        let var = &var;
        let own_body = self.f.loops[*id].checkpoint.is_none().then_some(body);
        let held = self.hold(own_body);
        self.loop_stack.push((*var, own_body));
        self.start_rows(*id, *var, range, body);
        let outer_fused = self.in_fused;
        self.in_fused |= self.fused == Some(*id);
        let body = self.block(body, &[]);
        self.in_fused = outer_fused;
        let rows = self.end_rows(range);
        self.loop_stack.pop();
        let held = self.release(held);
        if body.is_empty() {
            return TokenStream::new();
        }
        let lp = &self.f.loops[*id];
        let (k, i) = (lp.counter.clone(), self.f.vars[*var].emit.clone());
        let iter = self.range(range, true);
        let take = if lp.breaks {
            let nest = lp.nest.clone();
            let usize_ty = self.f.usize_ty;
            let trips = self.field(
                Key::Trips(*id),
                &format!("trips_{id}"),
                usize_ty,
                format!("how many iterations loop #{id} ran"),
                &nest,
            );
            quote!(.take(#trips))
        } else {
            TokenStream::new()
        };
        if lp.checkpoint.is_none() {
            let lp = if rows.is_empty() {
                quote!(for (#k, #i) in #iter.enumerate() #take .rev() { #body })
            } else {
                quote!({ #rows for (#k, #i) in #iter.enumerate() #take .rev() { #body } })
            };
            if held.is_empty() {
                return lp;
            }
            // Read and written back only if the loop runs: the index of a held place is valid
            // (the primal indexed with it) only in the iterations that ran.
            let runs = self.names.fresh("runs");
            let (mut load, mut store) = (
                quote!(let #runs: bool = #iter #take .next().is_some();),
                TokenStream::new(),
            );
            for (local, place, ty, zero) in held {
                load.extend(quote!(let mut #local: #ty = if #runs { #place } else { #zero };));
                store.extend(quote!(if #runs { #place = #local; }));
            }
            return quote!(#load #lp #store);
        }
        self.checkpointed(*id, (&k, &i), &iter, &take, (&body, rows))
    }

    /// Starts holding in locals the cotangents of the places of a plain loop's body that stay
    /// put while it runs (see [`registers`](super::registers)); returns the mark to release.
    fn hold(&mut self, body: Option<&Block>) -> usize {
        let mark = self.held.len();
        let Some(body) = body else {
            return mark;
        };
        let outer: Vec<VarId> = self.loop_stack.iter().map(|(v, _)| *v).collect();
        let places = super::registers::invariant_places(self.f, self.act, body, &outer);
        if places.len() < 2 {
            return mark;
        }
        for (v, proj) in places {
            let key = super::preacc::place_key(v, &proj);
            if self.held.iter().all(|(k, ..)| *k != key) {
                let name = format!("{}_held", self.d_vars[v].as_ref().unwrap());
                let local = self.names.fresh(&name);
                self.held.push((key, local, false));
                self.held_places.push((v, proj));
            }
        }
        mark
    }

    /// Stops holding the places held since `mark`; returns those the sweep used: the local, the
    /// place, its type and a zero of it.
    fn release(&mut self, mark: usize) -> Vec<(Ident, TokenStream, TokenStream, TokenStream)> {
        let held: Vec<_> = self.held.drain(mark..).collect();
        let places: Vec<_> = self.held_places.drain(mark..).collect();
        let mut out = Vec::new();
        for ((_, local, used), (v, proj)) in held.into_iter().zip(places) {
            if used {
                let ty = self.place_ty(v, &proj);
                let place = self.d_place(v, &proj);
                let zero = self.f.types.zero(ty);
                out.push((local, place, self.f.types.tokens_infer(ty), zero));
            }
        }
        out
    }

    /// A checkpointed loop backwards: restore the state saved before iteration `k`, run the
    /// iteration again recording one iteration's tape, then sweep it backwards. With
    /// `snapshots = S`, the state is saved every `stride` iterations only: each segment is first
    /// re-run without recording to save its states on the stack.
    fn checkpointed(
        &mut self,
        id: usize,
        (k, i): (&Ident, &Ident),
        iter: &TokenStream,
        take: &TokenStream,
        (body, rows): (&TokenStream, TokenStream),
    ) -> TokenStream {
        let id = &id;
        let (iter, take, body) = (iter.clone(), take.clone(), body.clone());
        let lp = &self.f.loops[*id];
        if lp.independent() {
            return self.independent(*id, (k, i), &iter, &take, (&body, rows));
        }
        let (snapshots, stride) = lp.checkpoint_layout();
        // The segment buffer's length: the stride, or for a const generic trip count
        // `N` (where `div_ceil(N, S)` cannot size an array on stable Rust) `N` itself.
        let capacity = if lp.trips_generic {
            lp.trips.clone()
        } else {
            stride.clone().unwrap_or_default()
        };
        if lp.binomial {
            return self.binomial(*id, &iter, &take, &body, &snapshots);
        }
        let mut restore = TokenStream::new();
        let mut seg_decl = TokenStream::new();
        let mut seg_save = TokenStream::new();
        let mut seg_restore = TokenStream::new();
        let seg_start = Ident::new("start", Span::mixed_site());
        for &v in &lp.carried.clone() {
            let var = &self.f.vars[v];
            let (emit, ty) = (var.emit.clone(), var.ty);
            let tyt = self.ty(ty);
            if !var.mutable {
                let val = self.var_val(v, &[], usize::MAX);
                restore.extend(quote!(let #emit: #tyt = #val;));
                continue;
            }
            let count = Some(&snapshots);
            let slot = self.snapshot_field(*id, v, count, "saved by");
            match &stride {
                None => restore.extend(quote!(let mut #emit: #tyt = #slot[#k];)),
                Some(_) => {
                    // Fresh: `d_segment` may be the cotangent of a user's `segment`.
                    let seg = self.names.fresh(&format!("{emit}_segment"));
                    let zero = self.f.types.zero(ty);
                    let seg_index = Ident::new("segment", Span::mixed_site());
                    restore.extend(quote!(let mut #emit: #tyt = #slot[#seg_index];));
                    seg_decl.extend(quote!(let mut #seg: [#tyt; #capacity] = [#zero; #capacity];));
                    seg_save.extend(quote!(#seg[#k - #seg_start] = #emit;));
                    seg_restore.extend(quote!(let mut #emit: #tyt = #seg[#k - #seg_start];));
                }
            }
        }
        let step = crate::names::step_ident(*id);
        let step_ty = self.step_ty(*id);
        let (marker, advance) = self.reruns.get(id).cloned().unwrap_or_default();
        let Some(stride) = stride else {
            return quote!(for (#k, #i) in #iter.enumerate() #take .rev() {
                let mut #step = <#step_ty>::new();
                #restore
                #marker
                #body
            });
        };
        let n = Ident::new("trips", Span::mixed_site());
        let count = if lp.breaks {
            let trips = self
                .tape
                .access(Key::Trips(*id), &self.tape_ident, &self.f.loops)
                .unwrap();
            quote!(#trips)
        } else {
            quote!(#iter.len())
        };
        let (seg_index, len) = (
            Ident::new("segment", Span::mixed_site()),
            Ident::new("len", Span::mixed_site()),
        );
        quote!(
            let #n: usize = #count;
            for #seg_index in (0..#snapshots).rev() {
                let #seg_start = #seg_index * #stride;
                if #seg_start >= #n {
                    continue;
                }
                let #len = if #n - #seg_start < #stride { #n - #seg_start } else { #stride };
                #restore
                #seg_decl
                for (#k, #i) in #iter.enumerate().skip(#seg_start).take(#len) {
                    #seg_save
                    #advance
                }
                for (#k, #i) in #iter.enumerate().skip(#seg_start).take(#len).rev() {
                    let mut #step = <#step_ty>::new();
                    #seg_restore
                    #marker
                    #body
                }
            }
        )
    }

    /// A run-time loop of independent iterations backwards: each iteration is run again from the
    /// loop's inputs into one iteration's tape, then swept back. What it reads from before the
    /// loop is restored once, before it: a variable it does not write from its value then (a
    /// mutable one saved in the tape where the loop starts), an accumulator as a zero, as no
    /// iteration's derivative reads it.
    fn independent(
        &mut self,
        id: usize,
        (k, i): (&Ident, &Ident),
        iter: &TokenStream,
        take: &TokenStream,
        (body, rows): (&TokenStream, TokenStream),
    ) -> TokenStream {
        if self.fused == Some(id) {
            self.fused_body = Some(body.clone());
            return TokenStream::new();
        }
        let mut written = Vec::new();
        if let Some(b) = crate::walk::find_loop(&self.f.body, id) {
            crate::walk::assigned(b, &mut written);
        }
        let extrema: Vec<VarId> = (self.f.loops[id].extrema.iter())
            .copied()
            .filter(|&v| self.d_vars[v].is_some())
            .collect();
        let mut restore = TokenStream::new();
        for v in self.f.loops[id].carried.clone() {
            let var = &self.f.vars[v];
            let (emit, ty, mutable) = (var.emit.clone(), var.ty, var.mutable);
            let tyt = self.ty(ty);
            if extrema.contains(&v) {
                let slot = self.snapshot_field(id, v, None, "before");
                restore.extend(quote!(let mut #emit: #tyt = #slot;));
            } else if !mutable {
                let val = self.var_val(v, &[], usize::MAX);
                restore.extend(quote!(let #emit: #tyt = #val;));
            } else if written.contains(&v) {
                let zero = self.f.types.zero(ty);
                restore.extend(quote!(let mut #emit: #tyt = #zero;));
            } else {
                let slot = self.snapshot_field(id, v, None, "before");
                restore.extend(quote!(let #emit: #tyt = #slot;));
            }
        }
        let step = crate::names::step_ident(id);
        let step_ty = self.step_ty(id);
        let (marker, _) = self.reruns.get(&id).cloned().unwrap_or_default();
        let (once, each) = self.tape.step_lets(id, &step, &step_ty);
        let once = quote!(#once #rows);
        if extrema.is_empty() {
            return quote!({
                #restore
                #once
                for (#k, #i) in #iter.enumerate() #take .rev() {
                    #each
                    #marker
                    #body
                }
            });
        }
        // An extremum's cotangent after iteration `k` is its cotangent after the loop if its
        // value then is already the final one (no later iteration beats it), else zero: so the
        // iterations run in their own order, from the final values the forward sweep kept.
        let (mut finals, mut seed, mut after) =
            (TokenStream::new(), TokenStream::new(), TokenStream::new());
        let mut lasts = Vec::new();
        for &v in &extrema {
            let (emit, ty) = (self.f.vars[v].emit.clone(), self.f.vars[v].ty);
            let tyt = self.ty(ty);
            let d = self.d_vars[v].clone().unwrap();
            let slot = self.snapshot_field(id, v, None, "before");
            let kept = self.final_field(id, v);
            let (last, d_last) = (
                self.names.fresh(&format!("{emit}_final")),
                self.names.fresh(&format!("{d}_final")),
            );
            finals.extend(quote!(
                let #last: #tyt = #kept;
                let #d_last: #tyt = #d;
            ));
            seed.extend(quote!(#d = if #emit == #last { #d_last } else { -0.0 };));
            lasts.push(last.clone());
            after.extend(quote!(#d = if #slot == #last { #d_last } else { -0.0 };));
        }
        // Only the iteration that set the final value passes a cotangent on, where the loop
        // computes nothing else: found first, then swept back alone.
        let enumerated = quote!(#iter.enumerate() #take);
        let set = (self.set_by_one(id, &extrema))
            .then(|| self.set_search(extrema[0], &lasts[0], id, (k, i), &enumerated));
        let (search, one) = match &set {
            Some((search, at)) => (search.clone(), quote!(.skip(#at - 1).take(1))),
            None => (TokenStream::new(), TokenStream::new()),
        };
        let mut sweep = quote!(for (#k, #i) in #iter.enumerate() #take #one {
            #each
            #marker
            #seed
            #body
        });
        if let Some((_, at)) = set {
            sweep = quote!(if #at != 0 { #sweep });
        }
        quote!({
            #restore
            #finals
            #once
            #search
            #sweep
            #after
        })
    }

    /// The search for the iteration that set the final value `last` of running extremum `v`,
    /// each iteration run from the value before the loop (where the final one is reached first,
    /// with no running value to carry), and the local that holds one plus its index (0: none).
    fn set_search(
        &mut self,
        v: VarId,
        last: &Ident,
        id: usize,
        (k, i): (&Ident, &Ident),
        iter: &TokenStream,
    ) -> (TokenStream, Ident) {
        let emit = self.f.vars[v].emit.clone();
        let tyt = self.ty(self.f.vars[v].ty);
        let uty = self.ty(self.f.usize_ty);
        let (from, at) = (
            self.names.fresh(&format!("{emit}_before")),
            self.names.fresh(&format!("{emit}_set_at")),
        );
        let (_, advance) = self.reruns.get(&id).cloned().unwrap_or_default();
        let search = quote!(
            let #from: #tyt = #emit;
            let mut #at: #uty = 0;
            if #from != #last {
                for (#k, #i) in #iter {
                    #advance
                    if #emit == #last {
                        #at = #k + 1;
                        break;
                    }
                    #emit = #from;
                }
            }
            #emit = #from;
        );
        (search, at)
    }

    /// A loop of independent iterations that computes one running extremum and nothing else
    /// (no accumulator, no early exit): the iterations before the one that set its final value
    /// and those after it pass it no cotangent, so the reverse sweep runs that one alone.
    fn set_by_one(&self, id: usize, extrema: &[VarId]) -> bool {
        let lp = &self.f.loops[id];
        let others = !crate::walk::accumulators(self.f, id).is_empty();
        let exits = crate::walk::find_loop(&self.f.body, id)
            .is_none_or(|b| b.stmts.iter().any(crate::walk::may_exit));
        extrema.len() == 1 && !others && !lp.breaks && !exits
    }

    /// The tape field that keeps the final value of loop `l`'s running extremum `v`, which the
    /// forward sweep stores right after the loop.
    fn final_field(&mut self, l: usize, v: VarId) -> TokenStream {
        let var = &self.f.vars[v];
        let (base, doc) = (
            format!("{}_final", var.emit),
            format!("`{}` after loop #{l}", var.name),
        );
        let (ty, init) = (self.ty(var.ty), self.f.types.zero(var.ty));
        self.loop_field(Key::After(l, v), l, (&base, doc), (ty, init))
    }

    /// The tape field of checkpointed loop `l` that saves variable `v`: `count` states of it, or
    /// one (the state before the loop).
    pub(super) fn snapshot_field(
        &mut self,
        l: usize,
        v: VarId,
        count: Option<&TokenStream>,
        when: &str,
    ) -> TokenStream {
        let var = &self.f.vars[v];
        let (base, doc) = (
            format!("{}_checkpoints", var.emit),
            format!("`{}` {when} checkpointed loop #{l}", var.name),
        );
        let (tyt, zero) = (self.ty(var.ty), self.f.types.zero(var.ty));
        let (ty, init) = match count {
            Some(n) => (quote!([#tyt; #n]), quote!([#zero; #n])),
            None => (tyt, zero),
        };
        self.loop_field(Key::Snap(l, v), l, (&base, doc), (ty, init))
    }

    /// The tape field `key` of a variable's state around loop `l` (inside the loops around
    /// it), made the first time: its place.
    fn loop_field(
        &mut self,
        key: Key,
        l: usize,
        (base, doc): (&str, String),
        (ty, init): (TokenStream, TokenStream),
    ) -> TokenStream {
        if self.tape.get(key).is_none() {
            let spec = Spec {
                base,
                ty,
                init,
                init_is_call: false,
                doc,
                nest: &self.f.loops[l].nest.clone(),
            };
            self.tape.field(key, spec, &self.f.loops);
        }
        self.tape
            .access(key, &self.tape_ident, &self.f.loops)
            .unwrap()
    }

    /// The reverse sweep of a loop checkpointed with Griewank's binomial schedule: the tape keeps
    /// the state before the loop; the sweep reverses `[lo, hi)` with `s` free snapshots by
    /// advancing to the split point `m` that the binomial bound allows, saving the state there,
    /// reversing `[m, hi)` with `s - 1` snapshots, then `[lo, m)` with `s`; one step left (or no
    /// snapshot left) is recomputed from the nearest saved state and swept back. At most `s + 1`
    /// states are live, on the sweep's stack.
    pub(super) fn binomial(
        &mut self,
        id: usize,
        iter: &TokenStream,
        take: &TokenStream,
        body: &TokenStream,
        snapshots: &TokenStream,
    ) -> TokenStream {
        let lp = &self.f.loops[id];
        let (k, i) = (lp.counter.clone(), {
            let v = self.loop_var(id);
            self.f.vars[v].emit.clone()
        });
        let slot_ident = Ident::new("slot", Span::mixed_site());
        let (mut slots_decl, mut restore, mut save) =
            (TokenStream::new(), TokenStream::new(), TokenStream::new());
        for &v in &lp.carried.clone() {
            let var = &self.f.vars[v];
            let (emit, ty) = (var.emit.clone(), var.ty);
            let tyt = self.ty(ty);
            if !var.mutable {
                let val = self.var_val(v, &[], usize::MAX);
                restore.extend(quote!(let #emit: #tyt = #val;));
                continue;
            }
            let first = self.snapshot_field(id, v, None, "before");
            let states = self.names.fresh(&format!("{emit}_states"));
            let zero = self.f.types.zero(ty);
            slots_decl.extend(quote!(
                let mut #states: [#tyt; #snapshots + 1] = [#zero; #snapshots + 1];
                #states[0] = #first;
            ));
            restore.extend(quote!(let mut #emit: #tyt = #states[#slot_ident];));
            save.extend(quote!(#states[#slot_ident + 1] = #emit;));
        }
        let step = crate::names::step_ident(id);
        let step_ty = self.step_ty(id);
        let (rerun, advance) = self.reruns.get(&id).cloned().unwrap_or_default();
        let count = if lp.breaks {
            let trips = self
                .tape
                .access(Key::Trips(id), &self.tape_ident, &self.f.loops)
                .unwrap();
            quote!(#trips)
        } else {
            quote!(#iter.len())
        };
        let _ = take;
        let [n, top, frames, lo, hi, s, m, j, binom, split, r, c, t] = [
            "trips", "top", "frames", "lo", "hi", "free", "mid", "target", "binomial", "split",
            "len", "c", "reps",
        ]
        .map(|x| Ident::new(x, Span::mixed_site()));
        quote!({
            /// `C(n, k)`, or `cap` if that is smaller.
            fn #binom(#n: usize, #j: usize, #hi: usize) -> usize {
                // With `k <= n / 2` the partial products `C(n, i)` only grow, so capping is exact.
                let #j = if #j > #n - #j { #n - #j } else { #j };
                let mut #c: usize = 1;
                for #lo in 0..#j {
                    #c = #c * (#n - #lo) / (#lo + 1);
                    if #c >= #hi {
                        return #hi;
                    }
                }
                #c
            }
            /// Where to split `len` steps with `free` snapshots besides the one holding the
            /// start: with `t` the fewest repetitions that `free + 1` snapshots need for `len`
            /// steps (`C(free + 1 + t, t) >= len`), the right part gets the most that `free`
            /// snapshots reverse in `t` repetitions, `C(free + t, t)`.
            fn #split(#r: usize, #s: usize) -> usize {
                let mut #t: usize = 1;
                while #binom(#s + 1 + #t, #s + 1, #r) < #r {
                    #t += 1;
                }
                #r - ::core::cmp::min(#binom(#s + #t, #s, #r), #r - 1)
            }
            let #n: usize = #count;
            #slots_decl
            // Pending frames: one per split on the path to the current frame that went right
            // (each spends a snapshot), plus the current pair: at most `S + 1`.
            let mut #frames = [(0usize, 0usize, 0usize, 0usize); #snapshots + 2];
            #frames[0] = (0, #n, #snapshots, 0);
            let mut #top: usize = 1;
            while #top > 0 {
                #top -= 1;
                let (#lo, #hi, #s, #slot_ident) = #frames[#top];
                if #hi <= #lo {
                    continue;
                }
                if #hi - #lo == 1 || #s == 0 {
                    for #j in (#lo..#hi).rev() {
                        #restore
                        for (#k, #i) in #iter.enumerate().skip(#lo).take(#j - #lo) {
                            #advance
                        }
                        for (#k, #i) in #iter.enumerate().skip(#j).take(1) {
                            let mut #step = <#step_ty>::new();
                            #rerun
                            #body
                        }
                    }
                    continue;
                }
                let #m = #lo + #split(#hi - #lo, #s);
                #restore
                for (#k, #i) in #iter.enumerate().skip(#lo).take(#m - #lo) {
                    #advance
                }
                #save
                #frames[#top] = (#lo, #m, #s, #slot_ident);
                #frames[#top + 1] = (#m, #hi, #s - 1, #slot_ident + 1);
                #top += 2;
            }
        })
    }

    /// The loop counter variable of loop `l`.
    pub(super) fn loop_var(&self, l: usize) -> VarId {
        fn find(b: &Block, l: usize) -> Option<VarId> {
            b.stmts.iter().find_map(|s| match s {
                Stmt::For { id, var, .. } if *id == l => Some(*var),
                Stmt::For { body, .. } => find(body, l),
                Stmt::If { then, els, .. } => find(then, l).or_else(|| find(els, l)),
                _ => None,
            })
        }
        find(&self.f.body, l).unwrap()
    }

    /// The iterator of a loop, in the adjoint (`reverse`) or the forward function.
    pub fn range(&mut self, r: &Range, reverse: bool) -> TokenStream {
        let start = self.pure_val(&r.start);
        let end = self.pure_val(&r.end);
        range_tokens(start, end, r, reverse, |p| self.pure_val(p))
    }
}
