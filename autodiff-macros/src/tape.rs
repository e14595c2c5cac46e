//! Tape layout: one fixed-size field per recorded value. Fields are created on demand while the
//! reverse sweep is generated, so the tape holds exactly what the sweep reads and the forward
//! sweep would otherwise drop or overwrite.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};

use crate::ir::{ReadId, Target};

/// What a field records.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Key {
    /// The value of an immutable variable or a temporary, stored where it is defined.
    Value(Target),
    /// The value a definition assigns to a mutable variable.
    DefOut(usize),
    /// The value of a mutable variable at one read.
    Read(ReadId),
    /// The branch an `if` took.
    Flag(usize),
    /// The tape of a call to a differentiable function.
    Call(usize),
}

pub struct Field {
    pub name: Ident,
    pub ty: TokenStream,
    pub init: TokenStream,
    pub doc: String,
}

#[derive(Default)]
pub struct Tape {
    pub fields: Vec<Field>,
    map: HashMap<Key, usize>,
    used: HashSet<String>,
}

impl Tape {
    /// The field for `key`, created with a name based on `base` on first use.
    pub fn field(
        &mut self,
        key: Key,
        base: &str,
        ty: TokenStream,
        init: TokenStream,
        doc: String,
    ) -> Ident {
        if let Some(&i) = self.map.get(&key) {
            return self.fields[i].name.clone();
        }
        let name = unique(&mut self.used, base.trim_start_matches("r#"));
        let name = Ident::new(&name, Span::call_site());
        self.map.insert(key, self.fields.len());
        self.fields.push(Field {
            name: name.clone(),
            ty,
            init,
            doc,
        });
        name
    }

    pub fn get(&self, key: Key) -> Option<&Ident> {
        self.map.get(&key).map(|&i| &self.fields[i].name)
    }

    /// Puts the fields in the order the forward sweep writes them (`order` lists field names).
    pub fn sort(&mut self, order: &[Ident]) {
        let pos = |f: &Field| {
            order
                .iter()
                .position(|n| *n == f.name)
                .unwrap_or(usize::MAX)
        };
        let mut keyed: Vec<(Key, Field)> = {
            let mut by_index: Vec<Option<Key>> = vec![None; self.fields.len()];
            for (k, &i) in &self.map {
                by_index[i] = Some(*k);
            }
            by_index
                .into_iter()
                .map(Option::unwrap)
                .zip(self.fields.drain(..))
                .collect()
        };
        keyed.sort_by_key(|(_, f)| pos(f));
        self.map = keyed
            .iter()
            .enumerate()
            .map(|(i, (k, _))| (*k, i))
            .collect();
        self.fields = keyed.into_iter().map(|(_, f)| f).collect();
    }

    pub fn set_doc(&mut self, name: &Ident, doc: String) {
        if let Some(f) = self.fields.iter_mut().find(|f| f.name == *name) {
            f.doc = doc;
        }
    }
}

/// `base`, or `base_1`, `base_2`, ... whichever is not taken yet; records it as taken.
pub fn unique(used: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 1;
    while used.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    used.insert(name.clone());
    name
}
