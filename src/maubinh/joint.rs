//! The joint term of 4-2 scoring: how an opponent's three hands are played together.
//!
//! The per-position tables ([`super::expected`]) price the 4-2 majority (one more point for
//! winning more hands than the opponent) as if the opponent's back, middle and front were
//! independent. They are not: one 13-card hand makes all three, so strong backs come with
//! strong middles, and a weak front is often the price of both. Measured against the
//! equilibrium's own opponents, that independence is about half of what a best response wins
//! against it (the rest is card removal beyond the tables' classes of the player's hand).
//!
//! The correction: where an opponent's hand falls in each position's distribution (its
//! *quantile* `u = P(weaker) + P(equal)/2` under the player's class tables) is counted on a
//! `grid × grid × grid` lattice of cells, over the equilibrium's own arrangements in seeded
//! four-player deals (each seat's opponents, under its own hand's tables): the opponents'
//! copula. Taken as uniform within each cell, it gives every joint probability the majority
//! needs as a trilinear interpolation of its cumulative counts: with `w` the player's win and
//! `l` its lose probability at each position, `P(win b and m) = C(w_b, w_m, 1)`,
//! `P(lose b and m) = 1 − a_b − a_m + C(a_b, a_m, 1)` with `a = 1 − l`, and so on; the
//! correction is the majority from those minus the independent one. It is applied where it is
//! cheap: the solver's search finds the best [`CANDIDATES_42`] splits by the tables (distinct
//! strengths) and the correction picks among them. Four at first, for the decision's cost:
//! among the best 2, 4, 8 and 16 the correction won back 0.0009, 0.0023, 0.0026 and 0.0027 of
//! the 0.0058 points a hand a best response wins on dev seed 7 (`benches/maubinh_diagnose.py`),
//! but eight cost 1.9 to 2.2 times the expected solve on a loaded machine, four 1.8. Six now:
//! with card removal, most of what a best response wins under 4-2 is a split the tables rank
//! just below the first four that the refined value ranks above the choice (the solver guide's
//! diagnosis), and the margin the search works within keeps six within the budget.
//!
//! The file (`joint_tables_42.bin`): `MBJ1`, a little-endian u32 length and that many bytes
//! of UTF-8 JSON (the header: how the cells were counted), the grid (one byte), then `grid³`
//! little-endian u32 counts, the back's quantile cell slowest, the front's fastest. A file of
//! a later format (`MBJ2`...) is refused with an error that names it.

use super::expected::Entry;
use super::framing::{frame, refuse_newer, unframe};
use crate::error::{Error, Result};
use std::sync::OnceLock;

const MAGIC: &[u8; 4] = b"MBJ1";
/// Cells per position the generator counts on (16³ = 4,096 cells, 16 KB of counts).
pub const GRID: usize = 16;
/// Splits (distinct strengths, best first by the tables) among which the refined choice is
/// made under the default scoring (card removal alone).
pub const CANDIDATES: usize = 4;

/// The same under 4-2, where the copula corrects the majority: six (a best response's split
/// is most often just below the tables' first four; the solver guide's diagnosis).
pub const CANDIDATES_42: usize = 6;

/// Counts of opponents' (back, middle, front) quantile cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cells {
    pub grid: usize,
    pub counts: Vec<u64>,
}

impl Cells {
    pub fn empty(grid: usize) -> Cells {
        Cells {
            grid,
            counts: vec![0; grid * grid * grid],
        }
    }

    /// The cell of a quantile in `[0, 1]`.
    #[inline]
    pub fn cell(&self, u: f64) -> usize {
        ((u * self.grid as f64) as usize).min(self.grid - 1)
    }

    /// Counts one opponent whose three hands sit at quantiles `u`.
    pub fn add(&mut self, u: [f64; 3]) {
        let g = self.grid;
        let [i, j, k] = u.map(|x| self.cell(x));
        self.counts[(i * g + j) * g + k] += 1;
    }

    pub fn merge(&mut self, other: &Cells) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// The binary form (see the module docs).
    pub fn to_bytes(&self, header: &str) -> Result<Vec<u8>> {
        let mut out = frame(MAGIC, header);
        out.push(self.grid as u8);
        for &c in &self.counts {
            let c = u32::try_from(c)
                .map_err(|_| Error::Rules("joint cell counts must fit 32 bits".into()))?;
            out.extend_from_slice(&c.to_le_bytes());
        }
        Ok(out)
    }

    fn split(bytes: &[u8]) -> Result<(&str, &[u8])> {
        refuse_newer(
            bytes,
            b"MBJ",
            MAGIC[3],
            "Mậu Binh joint tables",
            "this vncards reads MBJ1 only (a newer version wrote them: upgrade vncards, or \
             regenerate them with this version's scripts/gen_maubinh_joint.py)",
        )?;
        unframe(bytes, MAGIC)
            .filter(|(_, body)| !body.is_empty())
            .ok_or_else(|| Error::Rules("joint tables must start with MBJ1 and a header".into()))
    }

    /// The JSON header of the binary form.
    pub fn header(bytes: &[u8]) -> Result<&str> {
        Ok(Cells::split(bytes)?.0)
    }

    /// Reads the binary form, refusing a damaged or newer file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Cells> {
        let (_, rest) = Cells::split(bytes)?;
        let bad = |what: String| Error::Rules(format!("joint tables (MBJ1) {what}"));
        let (&grid, counts) = rest
            .split_first()
            .ok_or_else(|| bad("end before the grid".into()))?;
        let grid = usize::from(grid);
        if !(1..=64).contains(&grid) {
            return Err(bad(format!("have a grid of {grid}, not 1 to 64")));
        }
        let want = 4 * grid * grid * grid;
        if counts.len() != want {
            return Err(bad(format!(
                "hold {} bytes of counts, not {want}",
                counts.len()
            )));
        }
        let counts: Vec<u64> = counts
            .chunks_exact(4)
            .map(|c| u64::from(u32::from_le_bytes(c.try_into().expect("4 bytes"))))
            .collect();
        if counts.iter().all(|&c| c == 0) {
            return Err(bad("count no opponent".into()));
        }
        Ok(Cells { grid, counts })
    }
}

/// The opponents' copula as cumulative shares on the lattice, for the decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    grid: usize,
    /// `cdf[(i·(g+1) + j)·(g+1) + k]`: the share of opponents in cells below `(i, j, k)`.
    cdf: Vec<f64>,
}

impl Joint {
    pub fn from_cells(cells: &Cells) -> Joint {
        let g = cells.grid;
        let n = g + 1;
        let total: u64 = cells.counts.iter().sum();
        let mut cdf = vec![0.0; n * n * n];
        for i in 0..g {
            for j in 0..g {
                for k in 0..g {
                    let c = cells.counts[(i * g + j) * g + k] as f64 / total.max(1) as f64;
                    cdf[((i + 1) * n + j + 1) * n + k + 1] = c;
                }
            }
        }
        // Running sums along each axis make the cumulative shares.
        for i in 1..n {
            for j in 1..n {
                for k in 1..n {
                    cdf[(i * n + j) * n + k] += cdf[(i * n + j) * n + k - 1];
                }
            }
        }
        for i in 1..n {
            for k in 1..n {
                for j in 1..n {
                    cdf[(i * n + j) * n + k] += cdf[(i * n + j - 1) * n + k];
                }
            }
        }
        for j in 1..n {
            for k in 1..n {
                for i in 1..n {
                    cdf[(i * n + j) * n + k] += cdf[((i - 1) * n + j) * n + k];
                }
            }
        }
        Joint { grid: g, cdf }
    }

    /// The shipped 4-2 copula.
    pub fn shipped_42() -> &'static Joint {
        static J: OnceLock<Joint> = OnceLock::new();
        J.get_or_init(|| {
            Joint::from_cells(
                &Cells::from_bytes(shipped_file()).expect("shipped joint tables are well-formed"),
            )
        })
    }

    /// `P(U_b < x, U_m < y, U_f < z)`, the opponents' quantiles uniform within each cell.
    pub fn cdf(&self, x: f64, y: f64, z: f64) -> f64 {
        let (g, n) = (self.grid, self.grid + 1);
        let at = |u: f64| {
            let p = u.clamp(0.0, 1.0) * g as f64;
            let i = (p as usize).min(g - 1);
            (i, p - i as f64)
        };
        let ((i, fx), (j, fy), (k, fz)) = (at(x), at(y), at(z));
        let c = |a: usize, b: usize, d: usize| self.cdf[(a * n + b) * n + d];
        let lerp = |a: f64, b: f64, t: f64| a + (b - a) * t;
        let plane = |a: usize| {
            lerp(
                lerp(c(a, j, k), c(a, j, k + 1), fz),
                lerp(c(a, j + 1, k), c(a, j + 1, k + 1), fz),
                fy,
            )
        };
        lerp(plane(i), plane(i + 1), fx)
    }

    /// `P(at least two of three events)` of events below `x`, `y`, `z` under the copula.
    fn two_of_three(&self, x: f64, y: f64, z: f64) -> f64 {
        self.cdf(x, y, 1.0) + self.cdf(x, 1.0, z) + self.cdf(1.0, y, z) - 2.0 * self.cdf(x, y, z)
    }

    /// The majority's value from the copula minus its value with the positions independent
    /// (what [`super::expected::split_value`] counts): the correction to add to a split's
    /// value under 4-2. Terms with ties stay independent (ties are rare at every position).
    pub fn correction(&self, b: &Entry, m: &Entry, f: &Entry) -> f64 {
        let [wb, wm, wf] = [b.win, m.win, f.win].map(f64::from);
        let [lb, lm, lf] = [b.lose, m.lose, f.lose].map(f64::from);
        let independent = |x: f64, y: f64, z: f64| x * y + x * z + y * z - 2.0 * x * y * z;
        let wins = self.two_of_three(wb, wm, wf) - independent(wb, wm, wf);
        // Losing at a position is the opponent's quantile above a = 1 − l: by
        // inclusion-exclusion, each joint loss is a sum of the copula's values.
        let (ab, am, af) = (1.0 - lb, 1.0 - lm, 1.0 - lf);
        let (cbm, cbf, cmf) = (
            self.cdf(ab, am, 1.0),
            self.cdf(ab, 1.0, af),
            self.cdf(1.0, am, af),
        );
        let pair = |x: f64, y: f64, c: f64| 1.0 - x - y + c;
        let all = 1.0 - ab - am - af + cbm + cbf + cmf - self.cdf(ab, am, af);
        let losses = pair(ab, am, cbm) + pair(ab, af, cbf) + pair(am, af, cmf)
            - 2.0 * all
            - independent(lb, lm, lf);
        wins - losses
    }
}

/// The shipped 4-2 joint tables' file.
pub fn shipped_file() -> &'static [u8] {
    include_bytes!("joint_tables_42.bin")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn entry(win: f64, lose: f64) -> Entry {
        Entry {
            win: win as f32,
            tie: (1.0 - win - lose) as f32,
            lose: lose as f32,
            ..Entry::default()
        }
    }

    /// Counts of `n` seeded opponents whose quantiles are drawn by `draw`.
    fn cells_of(n: usize, draw: impl Fn(&mut Rng) -> [f64; 3]) -> Cells {
        let mut rng = Rng::from_key([5; 32]);
        let mut c = Cells::empty(GRID);
        for _ in 0..n {
            c.add(draw(&mut rng));
        }
        c
    }

    fn uniform(rng: &mut Rng) -> f64 {
        f64::from(rng.below(1 << 20)) / f64::from(1u32 << 20)
    }

    #[test]
    fn independent_opponents_need_almost_no_correction() {
        let j = Joint::from_cells(&cells_of(400_000, |r| [uniform(r), uniform(r), uniform(r)]));
        for (w, l) in [(0.2, 0.7), (0.5, 0.45), (0.9, 0.05)] {
            let d = j.correction(&entry(w, l), &entry(l, w), &entry(w, l));
            assert!(d.abs() < 0.01, "{d}");
        }
    }

    /// The copula of opponents whose three quantiles are one (comonotone): the correction is
    /// exactly what the independent count misses, checked against a brute-force count.
    #[test]
    fn comonotone_opponents_match_a_brute_force_count() {
        let cells = cells_of(200_000, |r| {
            let u = uniform(r);
            [u, u, u]
        });
        let j = Joint::from_cells(&cells);
        let mut rng = Rng::from_key([9; 32]);
        for _ in 0..50 {
            // Grid-aligned probabilities: the piecewise-uniform copula is exact there.
            let q = |r: &mut Rng| f64::from(r.below(GRID as u32 + 1)) / GRID as f64;
            let (w, l): (Vec<f64>, Vec<f64>) = (0..3)
                .map(|_| {
                    let (a, b) = (q(&mut rng), q(&mut rng));
                    (a.min(b), 1.0 - a.max(b))
                })
                .unzip();
            // Brute force: opponents at quantile u, every u of a fine grid, equally likely.
            let steps = 4_096;
            let mut majority = 0.0;
            for s in 0..steps {
                let u = (s as f64 + 0.5) / steps as f64;
                let wins = (0..3).filter(|&p| u < w[p]).count();
                let losses = (0..3).filter(|&p| u > 1.0 - l[p]).count();
                majority += f64::from(u8::from(wins >= 2)) - f64::from(u8::from(losses >= 2));
            }
            majority /= steps as f64;
            let ind =
                |x: &[f64]| x[0] * x[1] + x[0] * x[2] + x[1] * x[2] - 2.0 * x[0] * x[1] * x[2];
            let want = majority - (ind(&w) - ind(&l));
            let got = j.correction(&entry(w[0], l[0]), &entry(w[1], l[1]), &entry(w[2], l[2]));
            assert!((got - want).abs() < 0.01, "{w:?} {l:?}: {got} vs {want}");
        }
    }

    #[test]
    fn cdf_is_a_distribution() {
        let j = Joint::from_cells(&cells_of(50_000, |r| {
            let u = uniform(r);
            [u, (u + uniform(r)) / 2.0, uniform(r)]
        }));
        assert!((j.cdf(1.0, 1.0, 1.0) - 1.0).abs() < 1e-12);
        assert_eq!(j.cdf(0.0, 0.7, 1.0), 0.0);
        let mut rng = Rng::from_key([3; 32]);
        for _ in 0..500 {
            let (x, y, z) = (uniform(&mut rng), uniform(&mut rng), uniform(&mut rng));
            let base = j.cdf(x, y, z);
            // Non-decreasing in each argument, and within the marginals' bounds.
            assert!(j.cdf((x + 0.05).min(1.0), y, z) >= base - 1e-12);
            assert!(j.cdf(x, (y + 0.05).min(1.0), z) >= base - 1e-12);
            assert!(j.cdf(x, y, (z + 0.05).min(1.0)) >= base - 1e-12);
            assert!(base <= j.cdf(x, 1.0, 1.0) + 1e-12);
        }
    }

    #[test]
    fn binary_form_round_trips_and_refuses_damage_and_newer_formats() {
        let mut c = Cells::empty(4);
        c.add([0.1, 0.5, 0.99]);
        c.add([1.0, 0.0, 0.3]);
        let bytes = c.to_bytes(r#"{"deals":1}"#).unwrap();
        assert_eq!(Cells::from_bytes(&bytes).unwrap(), c);
        assert_eq!(Cells::header(&bytes).unwrap(), r#"{"deals":1}"#);
        assert!(Cells::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Cells::from_bytes(&longer).is_err());
        let mut grid = bytes.clone();
        grid[8 + 11] = 0;
        assert!(Cells::from_bytes(&grid).is_err());
        assert!(Cells::from_bytes(&Cells::empty(2).to_bytes("{}").unwrap()).is_err());
        for magic in [b"MBJ2", b"MBJ9"] {
            let mut newer = bytes.clone();
            newer[..4].copy_from_slice(magic);
            let e = Cells::from_bytes(&newer).unwrap_err().to_string();
            assert!(e.contains(std::str::from_utf8(magic).unwrap()) && e.contains("upgrade"));
        }
        assert!(Cells::from_bytes(b"MBT4\0\0\0\0\x04").is_err());
        // The shipped file reads.
        let shipped = Cells::from_bytes(shipped_file()).unwrap();
        assert_eq!(shipped.grid, GRID);
        assert!(Cells::header(shipped_file()).unwrap().contains("\"deals\""));
    }
}
