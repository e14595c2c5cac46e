//! Character-level text corpora for next-character prediction.

use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use rand::Rng;

use super::{DataError, DataErrorKind, read_file};

/// A text as token ids, with its vocabulary: the distinct characters, sorted, token `i` being
/// `vocab()[i]`.
///
/// Ids are `u16` by default (2 bytes per character of text; a vocabulary of up to 65,536
/// characters): tiny-shakespeare's 1.1 million characters take 2.2 MB instead of 8.9 MB as
/// `usize`. A smaller vocabulary fits smaller ids: `CharCorpus::<u8>::read_with_ids` keeps one
/// byte per character for up to 256 distinct characters (1.1 MB for tiny-shakespeare's 65).
///
/// # Examples
///
/// ```
/// use autodiff_runtime::data::CharCorpus;
///
/// let corpus = CharCorpus::from_text("hello", "greeting")?;
/// assert_eq!(corpus.vocab(), ['e', 'h', 'l', 'o']);
/// assert_eq!(corpus.tokens(), [1, 0, 2, 2, 3]);
/// assert_eq!(corpus.encode("lo")?, [2, 3]);
/// assert_eq!(corpus.decode(&[1, 3])?, "ho");
/// assert!(corpus.encode("hi").is_err()); // 'i' is not in the vocabulary
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharCorpus<Id = u16> {
    name: String,
    vocab: Vec<char>,
    tokens: Vec<Id>,
}

/// An unsigned integer type that token ids are stored as: `u8` or `u16`.
pub trait TokenId: Copy + Into<usize> + TryFrom<usize> + sealed::Sealed {}

impl TokenId for u8 {}
impl TokenId for u16 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
}

impl CharCorpus {
    /// Builds the vocabulary from `text` and encodes it as `u16` ids; `name` names it in errors.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::Empty`] if `text` is empty, [`DataErrorKind::VocabTooLarge`] if it has
    /// more than 65,536 distinct characters.
    pub fn from_text(text: &str, name: &str) -> Result<Self, DataError> {
        Self::with_ids_from_text(text, name)
    }

    /// Reads a UTF-8 text file and builds the corpus with `u16` ids.
    ///
    /// # Errors
    ///
    /// As [`CharCorpus::read_with_ids`].
    pub fn read(path: impl AsRef<Path>) -> Result<Self, DataError> {
        Self::read_with_ids(path)
    }
}

impl<Id: TokenId> CharCorpus<Id> {
    /// Builds the vocabulary from `text` and encodes it as `Id`s; `name` names it in errors.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::Empty`] if `text` is empty, [`DataErrorKind::VocabTooLarge`] if it has
    /// more distinct characters than `Id` has values.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::data::{CharCorpus, DataErrorKind};
    ///
    /// let corpus = CharCorpus::<u8>::with_ids_from_text("hello", "greeting")?;
    /// assert_eq!(corpus.tokens(), [1u8, 0, 2, 2, 3]);
    /// let wide: String = (0..300u32).filter_map(char::from_u32).collect();
    /// let err = CharCorpus::<u8>::with_ids_from_text(&wide, "wide").unwrap_err();
    /// assert!(matches!(err.kind, DataErrorKind::VocabTooLarge(300)));
    /// # Ok::<(), autodiff_runtime::data::DataError>(())
    /// ```
    pub fn with_ids_from_text(text: &str, name: &str) -> Result<Self, DataError> {
        if text.is_empty() {
            return Err(DataError::new(name, DataErrorKind::Empty));
        }
        // The distinct characters, sorted, without a copy of the whole text: ASCII in a table,
        // the rest in a set. (`collect::<BTreeSet<_>>()` would not do: it gathers every
        // character into a vector and sorts it, 4 bytes a character and a buffer as large for
        // the sort, 9 MB for tiny shakespeare, the training process's peak memory.)
        let mut ascii = [false; 128];
        let mut others = alloc::collections::BTreeSet::new();
        for c in text.chars() {
            match ascii.get_mut(c as usize) {
                Some(seen) => *seen = true,
                None => {
                    others.insert(c);
                }
            }
        }
        let vocab: Vec<char> = (0u8..128)
            .filter(|&b| ascii[usize::from(b)])
            .map(char::from)
            .chain(others)
            .collect();
        if Id::try_from(vocab.len() - 1).is_err() {
            return Err(DataError::new(
                name,
                DataErrorKind::VocabTooLarge(vocab.len()),
            ));
        }
        let mut corpus = CharCorpus {
            name: name.into(),
            vocab,
            tokens: Vec::new(),
        };
        corpus.tokens = corpus.encode(text)?;
        Ok(corpus)
    }

    /// Reads a UTF-8 text file and builds the corpus with `Id`s.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::Io`] if the file cannot be read, [`DataErrorKind::InvalidUtf8`] (with the
    /// line and column of the first bad byte; lines end at `\n`, `\r\n` or `\r`, columns count
    /// characters from 1) if it is not UTF-8, [`DataErrorKind::Empty`] if it is empty,
    /// [`DataErrorKind::VocabTooLarge`] if it has more distinct characters than `Id` has values.
    pub fn read_with_ids(path: impl AsRef<Path>) -> Result<Self, DataError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = read_file(path)?;
        let text = core::str::from_utf8(&bytes).map_err(|e| {
            let valid = core::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            let (line, column) = end_of(valid);
            DataError::new(&*name, DataErrorKind::InvalidUtf8).at(Some(line), Some(column))
        })?;
        Self::with_ids_from_text(text, &name)
    }

    /// The distinct characters, sorted; token `i` is `vocab()[i]`.
    #[must_use]
    pub fn vocab(&self) -> &[char] {
        &self.vocab
    }

    /// The whole text as token ids.
    #[must_use]
    pub fn tokens(&self) -> &[Id] {
        &self.tokens
    }

    /// Token ids of `text`.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::UnknownChar`] for a character outside the vocabulary.
    pub fn encode(&self, text: &str) -> Result<Vec<Id>, DataError> {
        // Exactly one slot per character: no growth by doubling (the text can be large).
        let mut tokens = Vec::with_capacity(text.chars().count());
        for c in text.chars() {
            let id = self
                .vocab
                .binary_search(&c)
                .map_err(|_| DataError::new(&*self.name, DataErrorKind::UnknownChar(c)))?;
            // Every id of the vocabulary fits (checked when it was built).
            let Ok(id) = Id::try_from(id) else {
                unreachable!("the vocabulary's ids fit the id type")
            };
            tokens.push(id);
        }
        Ok(tokens)
    }

    /// The text of token ids.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::UnknownToken`] for an id not below the vocabulary size.
    pub fn decode(&self, tokens: &[Id]) -> Result<String, DataError> {
        tokens
            .iter()
            .map(|&t| {
                let t: usize = t.into();
                self.vocab
                    .get(t)
                    .copied()
                    .ok_or_else(|| DataError::new(&*self.name, DataErrorKind::UnknownToken(t)))
            })
            .collect()
    }

    /// Splits the tokens into the first `train_fraction` (for training) and the rest (for
    /// validation); the fraction is clamped to `[0, 1]`, and a NaN one counts as 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use autodiff_runtime::data::CharCorpus;
    ///
    /// let corpus = CharCorpus::from_text("abcdefghij", "letters")?;
    /// let (train, val) = corpus.split(0.9);
    /// assert_eq!((train.len(), val.len()), (9, 1));
    /// # Ok::<(), autodiff_runtime::data::DataError>(())
    /// ```
    #[must_use]
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    pub fn split(&self, train_fraction: f64) -> (&[Id], &[Id]) {
        let n = (self.tokens.len() as f64 * train_fraction.clamp(0.0, 1.0)) as usize;
        self.tokens.split_at(n.min(self.tokens.len()))
    }
}

/// The line and column (in characters, from 1) just after `text`; lines end at `\n`, `\r\n` or
/// `\r`.
fn end_of(text: &str) -> (u64, usize) {
    let (mut line, mut column) = (1, 1);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => (line, column) = (line + 1, 1),
            _ => column += 1,
        }
    }
    (line, column)
}

/// Fills `B` random windows for next-token prediction: `x[b]` is `T` consecutive tokens of `tokens`
/// from a uniformly random start and `y[b]` the same window shifted by one (`y[b][t] = x[b][t+1]`,
/// the last one being the token after the window). The token ids can be any unsigned type up to
/// `usize` (a [`CharCorpus`] keeps `u16` or the `Id` it is given); the windows are `usize`, as an embedding takes them.
///
/// # Errors
///
/// [`DataErrorKind::WindowTooLong`] if `tokens` has fewer than `T + 1` tokens; `x` and `y` are then
/// left unchanged.
///
/// # Examples
///
/// ```
/// use autodiff_runtime::data::fill_windows;
/// use rand::{SeedableRng, rngs::SmallRng};
///
/// let tokens: [u16; 6] = [0, 1, 2, 3, 4, 5];
/// let (mut x, mut y) = ([[0usize; 3]; 2], [[0usize; 3]; 2]);
/// fill_windows(&tokens, &mut x, &mut y, &mut SmallRng::seed_from_u64(1))?;
/// for b in 0..2 {
///     assert_eq!(y[b][..2], x[b][1..]);
///     assert_eq!(y[b][2], x[b][2] + 1);
/// }
/// assert!(fill_windows(&tokens[..3], &mut x, &mut y, &mut SmallRng::seed_from_u64(1)).is_err());
/// # Ok::<(), autodiff_runtime::data::DataError>(())
/// ```
pub fn fill_windows<const B: usize, const T: usize, Id: Copy + Into<usize>, R: Rng + ?Sized>(
    tokens: &[Id],
    x: &mut [[usize; T]; B],
    y: &mut [[usize; T]; B],
    rng: &mut R,
) -> Result<(), DataError> {
    let needed = T + 1;
    if tokens.len() < needed {
        return Err(DataError::new(
            "<tokens>",
            DataErrorKind::WindowTooLong {
                needed,
                available: tokens.len(),
            },
        ));
    }
    for (xb, yb) in x.iter_mut().zip(y.iter_mut()) {
        let start = rng.gen_range(0..=tokens.len() - needed);
        for (t, (x, y)) in xb.iter_mut().zip(yb.iter_mut()).enumerate() {
            *x = tokens[start + t].into();
            *y = tokens[start + t + 1].into();
        }
    }
    Ok(())
}
