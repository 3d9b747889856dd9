//! What the flow bindings share (`crate::table`): the game's random stream as a [`Draw`]
//! ([`PyDraw`]) and the effects of one action collected for Python ([`Effects`]): each event a
//! tuple the game's binding builds, each payment `("pay", from, to, units, reason)`.

use super::errors::to_py;
use super::rng::PyRng;
use crate::error::Error;
use crate::table::{Draw, Record};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// What one action did, in order.
pub(super) enum Effect<E> {
    Event(E),
    Pay(usize, usize, u32, &'static str),
}

/// The effects of one action.
pub(super) struct Effects<E>(pub Vec<Effect<E>>);

impl<E> Default for Effects<E> {
    fn default() -> Self {
        Effects(Vec::new())
    }
}

impl<E> Record<E> for Effects<E> {
    fn event(&mut self, event: E) {
        self.0.push(Effect::Event(event));
    }
    fn pay(&mut self, from: usize, to: usize, units: u32, reason: &'static str) {
        self.0.push(Effect::Pay(from, to, units, reason));
    }
}

impl<E> Effects<E> {
    /// The effects as a list of tuples, each event's built by `event`.
    pub(super) fn to_py<'py>(
        &self,
        py: Python<'py>,
        event: impl Fn(&E) -> PyResult<Bound<'py, PyTuple>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for e in &self.0 {
            let item = match e {
                Effect::Pay(from, to, units, reason) => {
                    ("pay", *from, *to, *units, *reason).into_pyobject(py)?
                }
                Effect::Event(ev) => event(ev)?,
            };
            out.append(item)?;
        }
        Ok(out)
    }
}

/// Runs one action of a flow with the game's stream `rng` (None: an action that draws
/// nothing) and a fresh record: its effects, or its error (nothing changed), or the first
/// error the stream raised.
pub(super) fn run_flow<'py, E>(
    py: Python<'py>,
    rng: Option<&Bound<'py, PyAny>>,
    act: impl FnOnce(&mut PyDraw<'_, 'py>, &mut Effects<E>) -> Result<(), Error>,
) -> PyResult<Effects<E>> {
    let none = py.None().into_bound(py);
    let mut draw = PyDraw::new(rng.unwrap_or(&none));
    let mut rec = Effects::default();
    act(&mut draw, &mut rec).map_err(to_py)?;
    draw.finish()?;
    Ok(rec)
}

/// The game's random stream: the core `Rng` read directly, or any object with the same
/// `permutation(n)` and `below(n)` methods (a dealing stream of given hands). The first error
/// an object raises is kept and raised after the action.
pub(super) enum PyDraw<'a, 'py> {
    Core(PyRefMut<'py, PyRng>),
    Object(&'a Bound<'py, PyAny>, Option<PyErr>),
}

impl<'a, 'py> PyDraw<'a, 'py> {
    pub(super) fn new(rng: &'a Bound<'py, PyAny>) -> PyDraw<'a, 'py> {
        match rng.cast::<PyRng>() {
            Ok(r) => match r.try_borrow_mut() {
                Ok(r) => PyDraw::Core(r),
                Err(_) => PyDraw::Object(rng, None),
            },
            Err(_) => PyDraw::Object(rng, None),
        }
    }

    pub(super) fn finish(self) -> PyResult<()> {
        match self {
            PyDraw::Object(_, Some(e)) => Err(e),
            _ => Ok(()),
        }
    }
}

impl Draw for PyDraw<'_, '_> {
    fn permutation(&mut self, out: &mut [u32]) {
        match self {
            PyDraw::Core(r) => Draw::permutation(&mut r.0, out),
            PyDraw::Object(obj, err) => {
                let n = out.len();
                let got = obj
                    .call_method1("permutation", (n,))
                    .and_then(|v| v.extract::<Vec<u32>>());
                let mut seen = vec![false; n];
                let ok = match &got {
                    Ok(v) => {
                        v.len() == n
                            && v.iter().all(|&x| {
                                let fresh = (x as usize) < n && !seen[x as usize];
                                if fresh {
                                    seen[x as usize] = true;
                                }
                                fresh
                            })
                    }
                    Err(_) => false,
                };
                match got {
                    Ok(v) if ok => out.copy_from_slice(&v),
                    other => {
                        for (i, x) in out.iter_mut().enumerate() {
                            *x = i as u32;
                        }
                        if err.is_none() {
                            *err = Some(other.err().unwrap_or_else(|| {
                                PyValueError::new_err(format!(
                                    "permutation({n}) did not return a permutation of range({n})"
                                ))
                            }));
                        }
                    }
                }
            }
        }
    }

    fn below(&mut self, n: u32) -> u32 {
        match self {
            PyDraw::Core(r) => Draw::below(&mut r.0, n),
            PyDraw::Object(obj, err) => {
                match obj
                    .call_method1("below", (n,))
                    .and_then(|v| v.extract::<u32>())
                {
                    Ok(x) if x < n => x,
                    other => {
                        if err.is_none() {
                            *err = Some(other.err().unwrap_or_else(|| {
                                PyValueError::new_err(format!(
                                    "below({n}) returned a number out of range"
                                ))
                            }));
                        }
                        0
                    }
                }
            }
        }
    }
}

/// What the bindings of a flow share over its hand type: the seat count and the hands, given to
/// Python as a number ([`SeatedFlow::Packed`]: a card mask for the shedding games, a packed
/// count per kind for Tứ Sắc) and taken back checked against the table's rules.
pub(super) trait SeatedFlow {
    /// A seat's hand in the core.
    type Hand: Copy;
    /// A hand as Python holds it.
    type Packed: Copy;
    fn players(&self) -> usize;
    /// Every seat's hand (the unused seats too).
    fn hands_mut(&mut self) -> &mut [Self::Hand];
    fn hands(&self) -> &[Self::Hand];
    fn pack(hand: &Self::Hand) -> Self::Packed;
    /// A hand from Python, refused unless the rules admit it.
    fn unpack(&self, hand: Self::Packed) -> PyResult<Self::Hand>;
}

/// Implements [`SeatedFlow`] for a core flow with `players` and `hands` fields: `$hand` packed
/// to `$packed` by `$pack`, and unpacked (checked) by `$unpack` (given the flow and the number).
macro_rules! seated_flow {
    ($flow:ty, $hand:ty => $packed:ty, $pack:expr, $unpack:expr) => {
        impl $crate::python::table::SeatedFlow for $flow {
            type Hand = $hand;
            type Packed = $packed;
            fn players(&self) -> usize {
                self.players
            }
            fn hands_mut(&mut self) -> &mut [$hand] {
                &mut self.hands
            }
            fn hands(&self) -> &[$hand] {
                &self.hands
            }
            fn pack(hand: &$hand) -> $packed {
                $pack(hand)
            }
            fn unpack(&self, hand: $packed) -> PyResult<$hand> {
                $unpack(self, hand)
            }
        }
    };
}
pub(super) use seated_flow;

/// `seat`, unless the table has no such seat (a `RulesError`).
pub(super) fn seat_arg(flow: &impl SeatedFlow, seat: usize) -> PyResult<usize> {
    if seat >= flow.players() {
        return Err(to_py(Error::Rules(format!(
            "seat {seat} is not one of {} seats",
            flow.players()
        ))));
    }
    Ok(seat)
}

/// Each seat's hand, packed.
pub(super) fn hands_of<F: SeatedFlow>(flow: &F) -> Vec<F::Packed> {
    flow.hands()[..flow.players()].iter().map(F::pack).collect()
}

/// Sets each seat's hand (tests that deal hidden hands again): one per seat, each checked;
/// nothing changes on an error.
pub(super) fn set_hands<F: SeatedFlow>(flow: &mut F, hands: Vec<F::Packed>) -> PyResult<()> {
    let n = flow.players();
    if hands.len() != n {
        return Err(to_py(Error::Rules(format!(
            "{} hands for {n} seats",
            hands.len()
        ))));
    }
    let next = hands
        .into_iter()
        .map(|h| flow.unpack(h))
        .collect::<PyResult<Vec<_>>>()?;
    flow.hands_mut()[..n].copy_from_slice(&next);
    Ok(())
}

/// A snapshot's refusal (a `SnapshotError`).
pub(super) fn bad_snapshot<T>(message: &str) -> PyResult<T> {
    Err(to_py(Error::Snapshot(message.to_string())))
}

/// A snapshot's per-seat lists (their lengths `lists`, named in `what`) hold one entry per seat.
pub(super) fn one_per_seat(players: usize, what: &str, lists: &[usize]) -> PyResult<()> {
    if lists.iter().any(|&len| len != players) {
        return bad_snapshot(&format!("{what} need one entry per seat"));
    }
    Ok(())
}

/// Every seat a snapshot names is at the table.
pub(super) fn seats_at_table(
    players: usize,
    seats: impl IntoIterator<Item = usize>,
) -> PyResult<()> {
    if !seats.into_iter().all(|s| s < players) {
        return bad_snapshot("a seat out of range");
    }
    Ok(())
}

/// A per-seat array of a snapshot: `given` (one per seat, read by `read`), then defaults.
pub(super) fn per_seat<R, T: Default, const N: usize>(
    given: impl IntoIterator<Item = R>,
    mut read: impl FnMut(R) -> PyResult<T>,
) -> PyResult<[T; N]> {
    let mut out: [T; N] = std::array::from_fn(|_| T::default());
    for (slot, r) in out.iter_mut().zip(given) {
        *slot = read(r)?;
    }
    Ok(out)
}

/// The option named `value` among `options`, else a `RulesError` listing them (`name`: the
/// rules field).
pub(super) fn choice<T: Copy>(name: &str, value: &str, options: &[(&str, T)]) -> PyResult<T> {
    options
        .iter()
        .find(|(n, _)| *n == value)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<String> = options.iter().map(|(n, _)| format!("{n:?}")).collect();
            to_py(Error::Rules(format!(
                "{name} must be one of {}, not {value:?}",
                names.join(", ")
            )))
        })
}
