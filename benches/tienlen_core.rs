//! `cargo bench --bench tienlen_core`: calls per second of the Rust move generator (no
//! criterion: a plain timing loop, so it runs offline).

use _core::cards::{parse_card_set, CardSet};
use _core::shedding::{classify, legal_plays_into, PlayFilter};
use _core::tienlen::{north, south};
use std::hint::black_box;
use std::time::Instant;

fn rate(label: &str, hand: &str, table: Option<&str>, north_rules: bool) {
    let rules = if north_rules { north() } else { south() };
    let hand = parse_card_set(hand).unwrap().1;
    let table = table.map(|t| classify(parse_card_set(t).unwrap().1, &rules).unwrap());
    let mut out = Vec::with_capacity(256);
    let iterations = 2_000_000u32;
    let start = Instant::now();
    let mut total = 0usize;
    for _ in 0..iterations {
        out.clear();
        legal_plays_into(
            black_box(hand),
            table.as_ref(),
            &rules,
            CardSet::EMPTY,
            PlayFilter::All,
            &mut out,
        );
        total += out.len();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{label:<40} {:>6} plays  {:>12.0} calls/s  {:>6.1} ns/call",
        total / iterations as usize,
        f64::from(iterations) / secs,
        secs * 1e9 / f64::from(iterations)
    );
}

fn main() {
    let hand82 = "3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥";
    rate("south lead, the 82-lead hand", hand82, None, false);
    rate("south on a single 9♠", hand82, Some("9♠"), false);
    rate(
        "south on 2♠ (bombs)",
        "3♠3♣4♦4♥5♠5♦6♠6♣7♠7♣7♦7♥2♥",
        Some("2♠"),
        false,
    );
    rate(
        "north lead",
        "3♠3♣ 4♠4♣ 5♠5♦ 6♠ 7♠ 8♠ 9♦ J♣ Q♣ 2♥",
        None,
        true,
    );
    rate(
        "singles only (13 cards, no runs)",
        "3♠ 5♣ 7♦ 9♥ J♠ K♣ 2♥ 3♣ 5♦ 7♥ 9♠ J♣ K♦",
        None,
        false,
    );
    rate("one triple + singles", "3♠3♣3♦ 7♦ 9♥ J♠ K♣ 2♥", None, false);
    rate("straight 3..9 single suits", "3♠4♠5♠6♠7♠8♠9♠", None, false);
}
