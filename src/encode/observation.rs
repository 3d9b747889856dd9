//! Observation vectors of one seat's view, written straight into a float32 row: the layouts of
//! `vncards.integrations.encoding`, whose PettingZoo and OpenSpiel environments call these
//! writers with the parts of a view dict, while the vector environment calls them with the
//! table's state. Everything is seat-relative: the observing seat first, the others in turn
//! order.

/// What a shedding seat sees (Tiến Lên, Sâm Lốc), in seat-relative order (index 0 is the
/// observing seat): every card set as a 52-card mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SheddingView<'a> {
    pub hand: u64,
    /// The combination on the table (0: none).
    pub table: u64,
    /// The card the next play must include (0 unless the observer leads the first play).
    pub must: u64,
    /// The cards each seat has played.
    pub played: &'a [u64],
    /// Cards each seat holds.
    pub counts: &'a [u32],
    /// Seat bit sets (bit k: the k-th seat from the observer): passed, out, to act, owns the
    /// table.
    pub passed: u32,
    pub out: u32,
    pub to_act: u32,
    pub owner: u32,
    /// Sâm Lốc's phase flag (`Some(true)` in the play phase); `None` for Tiến Lên.
    pub playing: Option<bool>,
}

/// Length of a shedding observation for `players` seats (`samloc`: one more, the phase flag).
pub const fn shedding_size(players: usize, samloc: bool) -> usize {
    (3 + players) * 52 + 5 * players + samloc as usize
}

/// The eight cells of each byte of a mask (bit 0 first): a row is written eight cells at a time.
static BYTE_CELLS: [[f32; 8]; 256] = byte_cells();

const fn byte_cells() -> [[f32; 8]; 256] {
    let mut table = [[0.0f32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                table[b][j] = 1.0;
            }
            j += 1;
        }
        b += 1;
    }
    table
}

/// Writes the 52 cells of `mask` (1.0 for each card held).
#[inline]
fn cards_row(mask: u64, out: &mut [f32]) {
    let out = &mut out[..52];
    for (k, cells) in out.chunks_mut(8).enumerate() {
        let byte = (mask >> (8 * k)) as u8;
        cells.copy_from_slice(&BYTE_CELLS[usize::from(byte)][..cells.len()]);
    }
}

#[inline]
fn flags(bits: u32, out: &mut [f32]) {
    for (k, cell) in out.iter_mut().enumerate() {
        *cell = (bits >> k & 1) as f32;
    }
}

/// The observation of `v` into `out` (`shedding_size` long): the hand, table, required-card
/// and per-seat played-card rows; then per seat its card count / 13, passed, out, to act, owns
/// the table; then Sâm Lốc's phase flag.
pub fn shedding(v: &SheddingView<'_>, out: &mut [f32]) {
    let p = v.played.len();
    cards_row(v.hand, &mut out[..52]);
    cards_row(v.table, &mut out[52..104]);
    cards_row(v.must, &mut out[104..156]);
    for (k, &m) in v.played.iter().enumerate() {
        let at = (3 + k) * 52;
        cards_row(m, &mut out[at..at + 52]);
    }
    let s = (3 + p) * 52;
    for (cell, &c) in out[s..s + p].iter_mut().zip(v.counts) {
        *cell = (f64::from(c) / 13.0) as f32;
    }
    flags(v.passed, &mut out[s + p..s + 2 * p]);
    flags(v.out, &mut out[s + 2 * p..s + 3 * p]);
    flags(v.to_act, &mut out[s + 3 * p..s + 4 * p]);
    flags(v.owner, &mut out[s + 4 * p..s + 5 * p]);
    if let Some(playing) = v.playing {
        out[s + 5 * p] = f32::from(u8::from(playing));
    }
}

/// What a Tứ Sắc seat sees, in seat-relative order (index 0 is the observing seat): card
/// groups as counts of each of the 28 kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuSacView<'a> {
    pub hand: &'a [u8; 28],
    pub dead: &'a [u8; 28],
    /// The offered card's kind, if any.
    pub offer: Option<u8>,
    /// Each seat's exposed cards.
    pub exposed: &'a [[u8; 28]],
    /// Hidden cards each seat holds.
    pub counts: &'a [u32],
    /// Seat bit sets: still to act, offered the card.
    pub pending: u32,
    pub offered_by: u32,
    /// Cards left in the stock.
    pub stock: usize,
    /// A claim window is open.
    pub claim: bool,
}

/// Length of a Tứ Sắc observation for `players` seats.
pub const fn tusac_size(players: usize) -> usize {
    (3 + players) * 28 + 3 * players + 2
}

fn kind_row(counts: &[u8; 28], out: &mut [f32]) {
    for (cell, &c) in out[..28].iter_mut().zip(counts) {
        *cell = f32::from(c) / 4.0;
    }
}

/// The observation of `v` into `out` (`tusac_size` long): the hand, dead pile, offered-card and
/// per-seat exposed rows (copies / 4); then per seat its hidden count / 28, to act, offered
/// the card; then the stock / 100 (at most 1) and the claim-window flag.
pub fn tusac(v: &TuSacView<'_>, out: &mut [f32]) {
    let p = v.exposed.len();
    kind_row(v.hand, &mut out[..28]);
    kind_row(v.dead, &mut out[28..56]);
    out[56..84].fill(0.0);
    if let Some(k) = v.offer {
        out[56 + usize::from(k)] = 0.25;
    }
    for (k, row) in v.exposed.iter().enumerate() {
        let at = (3 + k) * 28;
        kind_row(row, &mut out[at..at + 28]);
    }
    let s = (3 + p) * 28;
    for (cell, &c) in out[s..s + p].iter_mut().zip(v.counts) {
        *cell = (f64::from(c) / 28.0) as f32;
    }
    flags(v.pending, &mut out[s + p..s + 2 * p]);
    flags(v.offered_by, &mut out[s + 2 * p..s + 3 * p]);
    out[s + 3 * p] = (v.stock as f64 / 100.0).min(1.0) as f32;
    out[s + 3 * p + 1] = f32::from(u8::from(v.claim));
}

/// What a Mậu Binh seat sees, in seat-relative order: its hand and arrangement as masks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MauBinhView {
    pub hand: u64,
    /// Its arrangement so far (zeros before it arranges).
    pub back: u64,
    pub middle: u64,
    pub front: u64,
    pub players: usize,
    /// Seat bit sets: arranged, confirmed, still to act.
    pub arranged: u32,
    pub confirmed: u32,
    pub pending: u32,
    /// Its arrangement is fouled (binh lủng).
    pub fouled: bool,
}

/// Length of a Mậu Binh observation for `players` seats.
pub const fn maubinh_size(players: usize) -> usize {
    4 * 52 + 3 * players + 1
}

/// The observation of `v` into `out` (`maubinh_size` long): the hand, back, middle and front
/// rows; then per seat arranged, confirmed, to act; then its own foul.
pub fn maubinh(v: &MauBinhView, out: &mut [f32]) {
    let p = v.players;
    for (k, &m) in [v.hand, v.back, v.middle, v.front].iter().enumerate() {
        cards_row(m, &mut out[k * 52..k * 52 + 52]);
    }
    let s = 4 * 52;
    flags(v.arranged, &mut out[s..s + p]);
    flags(v.confirmed, &mut out[s + p..s + 2 * p]);
    flags(v.pending, &mut out[s + 2 * p..s + 3 * p]);
    out[s + 3 * p] = f32::from(u8::from(v.fouled));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_scalars_land_where_the_layout_says() {
        let played = [0b1000u64, 0, 1 << 51];
        let counts = [13u32, 12, 0];
        let v = SheddingView {
            hand: 0b11,
            table: 0b100,
            must: 0,
            played: &played,
            counts: &counts,
            passed: 0b010,
            out: 0b100,
            to_act: 0b001,
            owner: 0b010,
            playing: Some(true),
        };
        let mut out = vec![9.0f32; shedding_size(3, true)];
        shedding(&v, &mut out);
        assert_eq!(out.len(), 6 * 52 + 16);
        assert_eq!(&out[..3], &[1.0, 1.0, 0.0]);
        assert_eq!(out[52 + 2], 1.0);
        assert_eq!(out[3 * 52 + 3], 1.0);
        assert_eq!(out[5 * 52 + 51], 1.0);
        let s = 6 * 52;
        assert_eq!(&out[s..s + 3], &[1.0, 12.0 / 13.0, 0.0]);
        assert_eq!(
            &out[s + 3..s + 15],
            &[0., 1., 0., 0., 0., 1., 1., 0., 0., 0., 1., 0.]
        );
        assert_eq!(out[s + 15], 1.0);
        assert!(out.iter().all(|&x| (0.0..=1.0).contains(&x)));
    }
}
