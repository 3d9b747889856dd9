//! The learned policy's network and its weights file, evaluated in plain Rust (no ML library).
//!
//! **Network.** A state tower (dense layers with ReLU) reads the seat's observation once per
//! decision into a vector `s`; each legal action's row `a` (see [`super::features`]) then goes
//! through `z = relu(J_s s + J_a a + b)` and a small head (dense layers, ReLU between them, the
//! last with one output): the action's score, the Monte-Carlo estimate of the units the seat
//! wins by taking it. `J_s s` is computed once per decision; `J_a a` sums the columns of `J_a`
//! for the action's non-zero cells (a play holds a few cards), so each further legal action
//! costs about one pass of the head.
//!
//! **Weights file** (all integers little-endian):
//!
//! ```text
//! magic       8 bytes   "VNCPOLCY"
//! version     u32       FORMAT_VERSION
//! game        u16 + UTF-8   e.g. "tienlen"
//! players     u32
//! encoding    u16 + UTF-8 name, u32 version, u64 hash   (features::Encoding)
//! layers      u32 count, u32 tower count, then per layer u32 rows (out), u32 cols (in)
//! rules       u32 + UTF-8 (JSON, the rules trained on)
//! provenance  u32 + UTF-8 (JSON: command, seed, steps, time, ...)
//! checksum    u64       FNV-1a of the data bytes
//! data        f32 LE    per layer: weights (rows x cols, row-major), then biases (rows)
//! ```
//!
//! The layers are: the tower, then `J_s`, then `J_a` (`b` is the sum of their biases), then
//! the head.

use super::features::{encoding, Encoding};
use crate::error::Error;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"VNCPOLCY";
/// The layout version of the file.
pub const FORMAT_VERSION: u32 = 1;
/// Bounds that keep a damaged file from asking for absurd allocations.
const MAX_LAYERS: usize = 16;
const MAX_WIDTH: usize = 4096;
const MAX_TEXT: usize = 1 << 20;

/// One dense layer: `rows` outputs of `cols` inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub rows: usize,
    pub cols: usize,
    /// `rows x cols`, row-major.
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// What a weights file says besides the numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub game: String,
    pub players: usize,
    pub encoding_name: String,
    pub encoding_version: u32,
    pub encoding_hash: u64,
    /// `(rows, cols)` of every layer, in file order.
    pub shapes: Vec<(usize, usize)>,
    /// How many of the layers make the state tower.
    pub tower: usize,
    pub rules: String,
    pub provenance: String,
}

/// A policy network ready to score actions.
#[derive(Clone, Debug)]
pub struct Net {
    pub header: Header,
    pub encoding: Encoding,
    layers: Vec<Dense>,
    /// Every layer transposed (`cols x rows`: one contiguous column per input). A layer sums
    /// the columns of its non-zero inputs (an observation and an action row are mostly zeros,
    /// a ReLU's output often), each sum a loop the compiler runs in vector registers.
    columns: Vec<Vec<f32>>,
}

/// `m` (`rows x cols`, row-major) transposed.
fn transpose(m: &Dense) -> Vec<f32> {
    let mut t = vec![0.0f32; m.rows * m.cols];
    for r in 0..m.rows {
        for c in 0..m.cols {
            t[c * m.rows + r] = m.w[r * m.cols + c];
        }
    }
    t
}

/// `y += v * column` for every non-zero `v` of `x` (`t`: one contiguous column per cell).
#[inline]
fn add_columns(t: &[f32], rows: usize, x: &[f32], y: &mut [f32]) {
    for (c, &v) in x.iter().enumerate() {
        if v != 0.0 {
            for (yi, &w) in y.iter_mut().zip(&t[c * rows..(c + 1) * rows]) {
                *yi += w * v;
            }
        }
    }
}

fn snapshot(msg: impl Into<String>) -> Error {
    Error::Snapshot(format!("policy weights: {}", msg.into()))
}

impl Net {
    /// A network from its header and numbers (each layer's weights then biases), checked
    /// against the game's encoding: a `RulesError` for a game the policy does not play, a
    /// `SnapshotError` for shapes or an encoding that do not fit.
    pub fn new(header: Header, data: &[f32]) -> Result<Net, Error> {
        let enc = encoding(&header.game, header.players)?;
        if header.encoding_name != enc.name
            || header.encoding_version != enc.version
            || header.encoding_hash != enc.hash
        {
            return Err(snapshot(format!(
                "trained on the encoding {} v{} ({:016x}); this build of vncards encodes {} with {} v{} ({:016x}): retrain them with `vncards train`",
                header.encoding_name, header.encoding_version, header.encoding_hash,
                header.game, enc.name, enc.version, enc.hash
            )));
        }
        let s = &header.shapes;
        let t = header.tower;
        if s.len() > MAX_LAYERS || t < 1 || s.len() < t + 3 {
            return Err(snapshot(format!(
                "{} layers with a tower of {t}: want a tower, J_s, J_a and a head",
                s.len()
            )));
        }
        if s.iter()
            .any(|&(r, c)| r == 0 || c == 0 || r > MAX_WIDTH || c > MAX_WIDTH)
        {
            return Err(snapshot("a layer of zero or absurd size"));
        }
        let mut width = enc.observation;
        for (k, &(rows, cols)) in s[..t].iter().enumerate() {
            if cols != width {
                return Err(snapshot(format!(
                    "tower layer {k} takes {cols} inputs, not the {width} it is given"
                )));
            }
            width = rows;
        }
        let (js, ja) = (s[t], s[t + 1]);
        if js.1 != width || ja.1 != enc.action || ja.0 != js.0 {
            return Err(snapshot(format!(
                "join layers {js:?} and {ja:?} do not fit a tower of {width} and actions of {}",
                enc.action
            )));
        }
        width = js.0;
        for &(rows, cols) in &s[t + 2..] {
            if cols != width {
                return Err(snapshot("head layers do not chain"));
            }
            width = rows;
        }
        if width != 1 {
            return Err(snapshot("the head must end in one output"));
        }
        let want: usize = s.iter().map(|&(r, c)| r * c + r).sum();
        if data.len() != want {
            return Err(snapshot(format!(
                "{} numbers for layers that need {want}",
                data.len()
            )));
        }
        if data.iter().any(|x| !x.is_finite()) {
            return Err(snapshot("a weight is not a finite number"));
        }
        let mut layers = Vec::with_capacity(s.len());
        let mut at = 0;
        for &(rows, cols) in s {
            let w = data[at..at + rows * cols].to_vec();
            at += rows * cols;
            let b = data[at..at + rows].to_vec();
            at += rows;
            layers.push(Dense { rows, cols, w, b });
        }
        let columns = layers.iter().map(transpose).collect();
        Ok(Net {
            header,
            encoding: enc,
            layers,
            columns,
        })
    }

    /// The numbers in file order (each layer's weights, then biases).
    pub fn data(&self) -> Vec<f32> {
        let mut out = Vec::new();
        for l in &self.layers {
            out.extend_from_slice(&l.w);
            out.extend_from_slice(&l.b);
        }
        out
    }

    /// Width of an observation.
    pub fn observation_size(&self) -> usize {
        self.encoding.observation
    }

    /// Width of an action row.
    pub fn action_size(&self) -> usize {
        self.encoding.action
    }

    /// The score of each action row of `actions` (`n * action_size()` cells) in the position
    /// whose observation is `obs`, into `out` (cleared first).
    pub fn scores(&self, obs: &[f32], actions: &[f32], out: &mut Vec<f32>) {
        out.clear();
        let t = self.header.tower;
        let mut x = self.layer(0, obs, true);
        for k in 1..t {
            x = self.layer(k, &x, true);
        }
        let (js, ja) = (&self.layers[t], &self.layers[t + 1]);
        let h = js.rows;
        // b = the biases of J_s and J_a, once; J_s s once per decision.
        let mut base = self.layer(t, &x, false);
        for (b, &c) in base.iter_mut().zip(&ja.b) {
            *b += c;
        }
        let last = self.layers.len() - 1;
        let mut z = vec![0.0f32; h];
        let mut bufs: Vec<Vec<f32>> = self.layers[t + 2..]
            .iter()
            .map(|l| vec![0.0f32; l.rows])
            .collect();
        for row in actions.chunks_exact(ja.cols) {
            z.copy_from_slice(&base);
            add_columns(&self.columns[t + 1], h, row, &mut z);
            for zi in z.iter_mut() {
                *zi = zi.max(0.0);
            }
            for k in t + 2..=last {
                let j = k - t - 2;
                let (done, rest) = bufs.split_at_mut(j);
                let input: &[f32] = if j == 0 { &z } else { &done[j - 1] };
                let y = &mut rest[0];
                y.copy_from_slice(&self.layers[k].b);
                add_columns(&self.columns[k], self.layers[k].rows, input, y);
                if k != last {
                    for v in y.iter_mut() {
                        *v = v.max(0.0);
                    }
                }
            }
            out.push(bufs[last - t - 2][0]);
        }
    }

    /// Layer `k` of `x`: its biases plus the columns of `x`'s non-zero cells, with ReLU when
    /// `relu`.
    fn layer(&self, k: usize, x: &[f32], relu: bool) -> Vec<f32> {
        let l = &self.layers[k];
        let mut y = l.b.clone();
        add_columns(&self.columns[k], l.rows, x, &mut y);
        if relu {
            for v in y.iter_mut() {
                *v = v.max(0.0);
            }
        }
        y
    }

    /// The index of the best-scored action (the first of equal scores).
    pub fn choose(&self, obs: &[f32], actions: &[f32], scratch: &mut Vec<f32>) -> usize {
        self.scores(obs, actions, scratch);
        argmax(scratch)
    }

    /// The weights file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        put_text16(&mut out, &h.game);
        out.extend_from_slice(&(h.players as u32).to_le_bytes());
        put_text16(&mut out, &h.encoding_name);
        out.extend_from_slice(&h.encoding_version.to_le_bytes());
        out.extend_from_slice(&h.encoding_hash.to_le_bytes());
        out.extend_from_slice(&(h.shapes.len() as u32).to_le_bytes());
        out.extend_from_slice(&(h.tower as u32).to_le_bytes());
        for &(r, c) in &h.shapes {
            out.extend_from_slice(&(r as u32).to_le_bytes());
            out.extend_from_slice(&(c as u32).to_le_bytes());
        }
        put_text32(&mut out, &h.rules);
        put_text32(&mut out, &h.provenance);
        let data: Vec<u8> = self.data().iter().flat_map(|x| x.to_le_bytes()).collect();
        out.extend_from_slice(&fnv_bytes(&data).to_le_bytes());
        out.extend_from_slice(&data);
        out
    }

    /// Reads a weights file: a `SnapshotError` for a file that is not one, is damaged, or
    /// was trained on another encoding; a `RulesError` for a game the policy does not play.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, Error> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(snapshot("not a vncards policy weights file (bad magic)"));
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(snapshot(format!(
                "file format version {version}; this build reads version {FORMAT_VERSION}"
            )));
        }
        let game = r.text16()?;
        let players = r.u32()? as usize;
        let encoding_name = r.text16()?;
        let encoding_version = r.u32()?;
        let encoding_hash = r.u64()?;
        let n = r.u32()? as usize;
        let tower = r.u32()? as usize;
        if n > MAX_LAYERS {
            return Err(snapshot(format!("{n} layers (at most {MAX_LAYERS})")));
        }
        let mut shapes = Vec::with_capacity(n);
        for _ in 0..n {
            let rows = r.u32()? as usize;
            let cols = r.u32()? as usize;
            if rows > MAX_WIDTH || cols > MAX_WIDTH {
                return Err(snapshot("a layer of absurd size"));
            }
            shapes.push((rows, cols));
        }
        let rules = r.text32()?;
        let provenance = r.text32()?;
        let checksum = r.u64()?;
        let want: usize = shapes.iter().map(|&(r, c)| r * c + r).sum();
        let data = r.take(want * 4)?;
        if r.at != bytes.len() {
            return Err(snapshot(format!(
                "{} bytes after the numbers",
                bytes.len() - r.at
            )));
        }
        if fnv_bytes(data) != checksum {
            return Err(snapshot(
                "the numbers do not match their checksum (a damaged file)",
            ));
        }
        let floats: Vec<f32> = data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let header = Header {
            game,
            players,
            encoding_name,
            encoding_version,
            encoding_hash,
            shapes,
            tower,
            rules,
            provenance,
        };
        Net::new(header, &floats)
    }
}

/// The index of the largest value (the first of equal ones; 0 when empty).
pub fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

fn put_text16(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len().min(u16::MAX as usize) as u16).to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..s.len().min(u16::MAX as usize)]);
}

fn put_text32(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn fnv_bytes(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.bytes.len() - self.at < n {
            return Err(snapshot("the file ends too soon (truncated)"));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, Error> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, Error> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn text(&mut self, n: usize) -> Result<String, Error> {
        if n > MAX_TEXT {
            return Err(snapshot("a text field of absurd length"));
        }
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| snapshot("a text field is not UTF-8"))
    }
    fn text16(&mut self) -> Result<String, Error> {
        let b = self.take(2)?;
        let n = usize::from(u16::from_le_bytes([b[0], b[1]]));
        self.text(n)
    }
    fn text32(&mut self) -> Result<String, Error> {
        let n = self.u32()? as usize;
        self.text(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(game: &str) -> Net {
        let enc = encoding(game, 4).unwrap();
        let shapes = vec![
            (8, enc.observation),
            (4, 8),
            (4, enc.action),
            (2, 4),
            (1, 2),
        ];
        let n: usize = shapes.iter().map(|&(r, c)| r * c + r).sum();
        let data: Vec<f32> = (0..n)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 100.0)
            .collect();
        let header = Header {
            game: game.into(),
            players: 4,
            encoding_name: enc.name.into(),
            encoding_version: enc.version,
            encoding_hash: enc.hash,
            shapes,
            tower: 1,
            rules: "{}".into(),
            provenance: "{\"test\": true}".into(),
        };
        Net::new(header, &data).unwrap()
    }

    #[test]
    fn a_file_round_trips_and_damage_is_refused() {
        let net = tiny("tienlen");
        let bytes = net.to_bytes();
        let back = Net::from_bytes(&bytes).unwrap();
        assert_eq!(back.header, net.header);
        assert_eq!(back.data(), net.data());
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(matches!(Net::from_bytes(&bad), Err(Error::Snapshot(_))));
        assert!(matches!(
            Net::from_bytes(&bytes[..40]),
            Err(Error::Snapshot(_))
        ));
        assert!(matches!(Net::from_bytes(b"hello"), Err(Error::Snapshot(_))));
    }

    #[test]
    fn scores_follow_the_layers() {
        let net = tiny("samloc");
        let obs = vec![0.5f32; net.observation_size()];
        let mut acts = vec![0.0f32; 2 * net.action_size()];
        acts[3] = 1.0;
        acts[net.action_size() + 52] = 1.0;
        let mut out = Vec::new();
        net.scores(&obs, &acts, &mut out);
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|x| x.is_finite()));
    }
}
