//! `cargo bench --bench boundary`: the cost of the hardening at the binding boundary, A/B on
//! the same work: the input checks each entry adds (mask within 52 bits, hand size, rollout
//! position) and the panic guard (`catch_unwind` around the body), next to the work they
//! protect (a `legal_plays` / `has_play` call). Plain timing loops, so it runs offline.

use _core::cards::{parse_card_set, CardSet};
use _core::shedding::{has_play, legal_plays_into, PlayFilter};
use _core::tienlen::south;
use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

const ITERATIONS: u32 = 2_000_000;

/// Nanoseconds per call of `f`.
fn ns(mut f: impl FnMut() -> usize) -> f64 {
    let mut sink = 0usize;
    let start = Instant::now();
    for _ in 0..ITERATIONS {
        sink = sink.wrapping_add(f());
    }
    black_box(sink);
    start.elapsed().as_secs_f64() * 1e9 / f64::from(ITERATIONS)
}

fn row(label: &str, plain: f64, hardened: f64) {
    println!(
        "{label:<44} {plain:>8.1} ns  {hardened:>8.1} ns  {:>+6.1}%",
        (hardened / plain - 1.0) * 100.0
    );
}

fn main() {
    let rules = south();
    let hand = parse_card_set("3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥")
        .unwrap()
        .1;
    let mask = hand.0;
    let mut out = Vec::with_capacity(256);
    println!(
        "{:<44} {:>11}  {:>11}  {:>7}",
        "call (82-lead hand)", "unchecked", "hardened", "cost"
    );

    let plain = ns(|| {
        out.clear();
        legal_plays_into(
            black_box(hand),
            None,
            &rules,
            CardSet::EMPTY,
            PlayFilter::All,
            &mut out,
        );
        out.len()
    });
    let hardened = ns(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let Ok(h) = CardSet::from_mask(black_box(mask)).and_then(|h| rules.check_hand(h))
            else {
                return 0;
            };
            out.clear();
            legal_plays_into(h, None, &rules, CardSet::EMPTY, PlayFilter::All, &mut out);
            out.len()
        }))
        .unwrap_or(0)
    });
    row("legal_plays (lead)", plain, hardened);

    let plain = ns(|| usize::from(has_play(black_box(hand), None, &rules, PlayFilter::Bombs)));
    let hardened = ns(|| {
        catch_unwind(AssertUnwindSafe(|| {
            CardSet::from_mask(black_box(mask))
                .and_then(|h| rules.check_hand(h))
                .map_or(0, |h| {
                    usize::from(has_play(h, None, &rules, PlayFilter::Bombs))
                })
        }))
        .unwrap_or(0)
    });
    row("has_play (bombs)", plain, hardened);

    let checks = ns(|| {
        CardSet::from_mask(black_box(mask))
            .and_then(|h| rules.check_hand(h))
            .map_or(0, |h| h.len() as usize)
    });
    let guard = ns(|| catch_unwind(|| black_box(mask).count_ones() as usize).unwrap_or(0));
    println!(
        "{:<44} {checks:>8.1} ns",
        "the checks alone (mask + hand size)"
    );
    println!(
        "{:<44} {guard:>8.1} ns",
        "the panic guard alone (catch_unwind)"
    );
}
