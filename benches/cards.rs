//! Rust-side figures for the card layer: parsing and set operations (no Python involved).

use _core::cards::{parse_card_set, CardSet};
use _core::rng::Rng;
use std::hint::black_box;
use std::time::Instant;

fn rate(name: &str, units_per_call: u64, unit: &str, mut f: impl FnMut()) {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        let dt = t.elapsed().as_secs_f64();
        if dt > 0.3 {
            println!(
                "{name:<52} {:>16.0} {unit}",
                (n * units_per_call) as f64 / dt
            );
            return;
        }
        n *= 2;
    }
}

fn main() {
    println!("cards (Rust core)");
    let hand = "3♠ 3♣ 4♦ 4♥ 5♠ 5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥";
    rate("parse a 13-card hand", 13, "cards/s", || {
        black_box(parse_card_set(black_box(hand)).unwrap());
    });
    let set = parse_card_set(hand).unwrap().1;
    rate("rank_counts of a 13-card set", 1, "calls/s", || {
        black_box(black_box(set).rank_counts());
    });
    rate("rank_mask of a 13-card set", 1, "calls/s", || {
        black_box(black_box(set).rank_mask());
    });
    let mut rng = Rng::from_key([3; 32]);
    rate(
        "shuffle 52 cards (ChaCha20 + Fisher-Yates)",
        1,
        "deals/s",
        || {
            black_box(rng.permutation(52));
        },
    );
    let mut total = 0u32;
    rate("iterate a 13-card set", 13, "cards/s", || {
        for c in black_box(set) {
            total = total.wrapping_add(c.index() as u32);
        }
    });
    black_box((total, CardSet::EMPTY));
}
