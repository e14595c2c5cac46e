//! Tape layout: one fixed-size field per recorded value, shaped by the loop nest. Fields are
//! created on demand while the reverse sweep is generated, so the tape holds exactly what the
//! sweep reads and the forward sweep would otherwise drop or overwrite. A value recorded inside
//! `for i in 0..N { for j in 0..M { .. } }` is a `[[T; M]; N]` field indexed by the iteration
//! counters, so every tape is a struct of fixed-size arrays and its size is exact.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::{At, Loop, ReadId, Target, VarId};
use crate::names::{step_ident, unique};

/// What a field records.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Key {
    /// The value of an immutable variable or a temporary, stored where it is defined.
    Value(Target),
    /// The value a definition assigns to a mutable variable.
    DefOut(usize),
    /// The value of a mutable variable (or an element of one) at one read.
    Read(ReadId),
    /// The branch an `if` took.
    Flag(usize),
    /// The tape of a call to a differentiable function.
    Call(usize),
    /// How many iterations a loop with a `break` ran.
    Trips(usize),
    /// The state a checkpointed loop saves before an iteration: (loop, variable).
    Snap(usize, usize),
    /// The final value of a loop's running extremum (`a = a.max(..)`): (loop, variable).
    After(usize, usize),
    /// A mutable variable recorded whole after its last write (the plan's snapshot).
    Whole(VarId, At),
}

#[derive(Clone)]
pub struct Field {
    pub name: Ident,
    pub ty: TokenStream,
    pub init: TokenStream,
    pub doc: String,
    /// The loops the value is recorded in, outermost first: one array dimension each.
    pub nest: Vec<usize>,
    /// A value recorded inside a checkpointed loop lives in that loop's step tape (one
    /// iteration's worth, recomputed by the reverse sweep), not in the function's tape.
    pub owner: Option<usize>,
    /// For each loop of `nest`: the type of the field's elements at its level, and a zero of
    /// it (what a `Vec` level grows by).
    pub elem_tys: Vec<TokenStream>,
    pub elems: Vec<TokenStream>,
    /// For each loop of `nest`: its level is a `Vec` (a taped run-time loop, or the outermost
    /// level under `heap`), sized when the loop starts.
    pub vecs: Vec<bool>,
}

#[derive(Default, Clone)]
pub struct Tape {
    pub fields: Vec<Field>,
    /// The name the tape's items give the `alloc` crate (`extern crate alloc as ..;`), for the
    /// `Vec` fields of run-time loops whose iterations carry state ([`Loop::taped`]).
    pub alloc: Option<Ident>,
    /// `#[differentiable(heap)]`: the outermost loop level of every field of the function's
    /// tape is a `Vec` too, so the tape's bulk is on the heap.
    pub heap: bool,
    map: HashMap<Key, usize>,
    used: HashSet<String>,
    /// The layout is final: asking for a field it lacks is a bug of the macro.
    frozen: bool,
}

/// What a new field holds.
pub struct Spec<'a> {
    pub base: &'a str,
    pub ty: TokenStream,
    pub init: TokenStream,
    /// `init` is a call (`GTape::new()`), which an array repeat needs in a `const` block.
    pub init_is_call: bool,
    pub doc: String,
    pub nest: &'a [usize],
}

impl Tape {
    /// An empty layout whose `Vec` fields name the `alloc` crate `alloc`.
    pub fn with_alloc(alloc: Ident, heap: bool) -> Self {
        Tape {
            alloc: Some(alloc),
            heap,
            ..Tape::default()
        }
    }

    /// Does any field have a `Vec` level (so that the tape's items name the `alloc` crate)?
    pub fn has_vecs(&self) -> bool {
        self.fields.iter().any(|f| f.vecs.contains(&true))
    }

    /// The field for `key`, created from `spec` on first use.
    pub fn field(&mut self, key: Key, spec: Spec, loops: &[Loop]) -> Ident {
        if let Some(&i) = self.map.get(&key) {
            return self.fields[i].name.clone();
        }
        assert!(
            !self.frozen,
            "stackgrad internal error: the reverse sweep asked for a tape field the plan lacks ({key:?})"
        );
        let name = unique(&mut self.used, spec.base.trim_start_matches("r#"));
        // A raw name stays raw: the field of `r#type` is `r#type`, not the keyword.
        let name = match spec.base.starts_with("r#") {
            true => Ident::new_raw(&name, Span::call_site()),
            false => Ident::new(&name, Span::call_site()),
        };
        let (mut ty, mut init) = (spec.ty, spec.init);
        let is_call = spec.init_is_call;
        // The step tape of the innermost checkpointed loop around the field (for a checkpoint,
        // around its loop: the function's tape, or the step tape of a run-time loop of
        // independent iterations the loop is inside).
        let owner = spec
            .nest
            .iter()
            .copied()
            .rev()
            .find(|&l| loops[l].checkpoint.is_some());
        let nest: Vec<usize> = match owner {
            Some(o) => spec
                .nest
                .iter()
                .copied()
                .skip_while(|&l| l != o)
                .skip(1)
                .collect(),
            None => spec.nest.to_vec(),
        };
        let mut is_call = is_call;
        let (mut elem_tys, mut elems) = (Vec::new(), Vec::new());
        let vecs: Vec<bool> = (nest.iter().enumerate())
            .map(|(at, &l)| loops[l].taped() || (self.heap && at == 0 && owner.is_none()))
            .collect();
        for (at, &l) in nest.iter().enumerate().rev() {
            elem_tys.insert(0, ty.clone());
            elems.insert(0, init.clone());
            if vecs[at] {
                // Sized when the loop starts (see [`Tape::resizes`]).
                let alloc = self.alloc.as_ref().expect("a `Vec` field needs `alloc`");
                ty = quote!(#alloc::vec::Vec<#ty>);
                init = quote!(#alloc::vec::Vec::new());
                is_call = true;
                continue;
            }
            let n = &loops[l].trips;
            ty = quote!([#ty; #n]);
            // A callee's tape (or a `Vec`) is not `Copy`: every level of the array repeats a
            // `const` block.
            init = if is_call {
                quote!([const { #init }; #n])
            } else {
                quote!([#init; #n])
            };
        }
        self.map.insert(key, self.fields.len());
        self.fields.push(Field {
            name: name.clone(),
            ty,
            init,
            doc: spec.doc,
            nest,
            owner,
            elem_tys,
            elems,
            vecs,
        });
        name
    }

    /// Before taped loop `l` starts (in the current iterations of the loops around it): each
    /// `Vec` it records into sized to its trip count, `trips` (the elements it adds zeroed; a
    /// `Vec` keeps its capacity, so a second call of the same size allocates nothing).
    pub fn resizes(
        &self,
        l: usize,
        tape: &Ident,
        loops: &[Loop],
        trips: &TokenStream,
    ) -> TokenStream {
        let mut out = TokenStream::new();
        for f in &self.fields {
            let Some(at) = f.nest.iter().position(|&m| m == l) else {
                continue;
            };
            if !f.vecs[at] {
                continue;
            }
            let name = &f.name;
            let ks = f.nest[..at].iter().map(|&m| &loops[m].counter);
            let zero = &f.elems[at];
            // A field of a run-time loop's step tape (the loop of independent iterations
            // around `l`, run again in the reverse sweep) lives in that tape.
            let base = match f.owner {
                Some(o) => step_ident(o),
                None => tape.clone(),
            };
            out.extend(quote!(#base.#name #([#ks])*.resize(#trips, #zero);));
        }
        out
    }

    /// Whether the step tape of loop `l` has `Vec` fields (of a sequential loop over a run-time
    /// length inside it): it is then made once, before the loop, and reused by each iteration,
    /// so that its `Vec`s are sized once.
    pub fn step_has_vecs(&self, l: usize) -> bool {
        (self.fields.iter()).any(|f| f.owner == Some(l) && f.vecs.iter().any(|&v| v))
    }

    /// The `let` of loop `l`'s step tape `step` of type `ty`, as (before the loop, in each
    /// iteration): one of the two is empty ([`Self::step_has_vecs`]).
    pub fn step_lets(
        &self,
        l: usize,
        step: &Ident,
        ty: &TokenStream,
    ) -> (TokenStream, TokenStream) {
        let make = quote!(let mut #step = <#ty>::new(););
        match self.step_has_vecs(l) {
            true => (make, TokenStream::new()),
            false => (TokenStream::new(), make),
        }
    }

    /// The bytes the `Vec` fields hold on the heap: an expression of `self` (`None`: none).
    pub fn heap_bytes<'f>(fields: impl Iterator<Item = &'f Field>) -> Option<TokenStream> {
        let mut terms = Vec::new();
        for f in fields {
            if !f.vecs.contains(&true) {
                continue;
            }
            let name = &f.name;
            terms.push(heap(quote!(self.#name), &f.vecs, &f.elem_tys));
        }
        (!terms.is_empty()).then(|| quote!(#(#terms)+*))
    }

    pub fn get(&self, key: Key) -> Option<&Ident> {
        self.map.get(&key).map(|&i| &self.fields[i].name)
    }

    /// `tape.name[k0][k1]`: the field's slot for the current iteration of its loops.
    pub fn access(&self, key: Key, tape: &Ident, loops: &[Loop]) -> Option<TokenStream> {
        self.access_with(key, tape, loops, |l| {
            let c = &loops[l].counter;
            quote!(#c)
        })
    }

    /// The field's slot with each loop's index given by `index`.
    pub fn access_with(
        &self,
        key: Key,
        tape: &Ident,
        loops: &[Loop],
        index: impl Fn(usize) -> TokenStream,
    ) -> Option<TokenStream> {
        let f = &self.fields[*self.map.get(&key)?];
        let name = &f.name;
        let ks = f.nest.iter().map(|&l| index(l));
        match f.owner {
            Some(o) => {
                let step = step_ident(o);
                let _ = loops;
                Some(quote!(#step.#name #([#ks])*))
            }
            None => Some(quote!(#tape.#name #([#ks])*)),
        }
    }

    /// Does any field live in loop `l`?
    pub fn uses_loop(&self, l: usize) -> bool {
        self.fields.iter().any(|f| f.nest.contains(&l))
    }

    /// Is this key recorded in a checkpointed loop's step tape?
    pub fn in_step(&self, key: Key) -> bool {
        self.map
            .get(&key)
            .is_some_and(|&i| self.fields[i].owner.is_some())
    }

    /// Puts the fields in the order the forward sweep writes them (`order` lists field names).
    pub fn sort(&mut self, order: &[Ident]) {
        let pos = |f: &Field| {
            order
                .iter()
                .position(|n| *n == f.name)
                .unwrap_or(usize::MAX)
        };
        let mut by_index: Vec<Option<Key>> = vec![None; self.fields.len()];
        for (k, &i) in &self.map {
            by_index[i] = Some(*k);
        }
        let mut keyed: Vec<(Key, Field)> = by_index
            .into_iter()
            .map(Option::unwrap)
            .zip(self.fields.drain(..))
            .collect();
        keyed.sort_by_key(|(_, f)| pos(f));
        self.map = keyed
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i))
            .collect();
        self.fields = keyed.into_iter().map(|(_, f)| f).collect();
    }

    /// Fixes the layout: both sweeps are generated against it.
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    pub fn set_doc(&mut self, name: &Ident, doc: String) {
        if let Some(f) = self.fields.iter_mut().find(|f| f.name == *name) {
            f.doc = doc;
        }
    }
}

/// The heap bytes of `expr`, a field's level whose levels from here on are `Vec`s or not as
/// `vecs` says (see [`Tape::heap_bytes`]).
fn heap(expr: TokenStream, vecs: &[bool], elem_tys: &[TokenStream]) -> TokenStream {
    let Some((&is_vec, rest)) = vecs.split_first() else {
        return quote!(0);
    };
    let e = Ident::new(&format!("e{}", vecs.len()), Span::mixed_site());
    let inner = rest.contains(&true).then(|| {
        let inner = heap(quote!(#e), rest, &elem_tys[1..]);
        quote!(#expr.iter().map(|#e| #inner).sum::<usize>())
    });
    if !is_vec {
        return inner.unwrap_or_else(|| quote!(0));
    }
    let elem = &elem_tys[0];
    let own = quote!(#expr.capacity() * ::core::mem::size_of::<#elem>());
    match inner {
        Some(inner) => quote!((#own + #inner)),
        None => own,
    }
}
