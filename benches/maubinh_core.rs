//! Mậu Binh core figures without Python: `hand_ranks`' per-row kernel (rows of five card
//! indices to a class, as the batch binding runs it) on one core and on every core, and the
//! solver per hand (one answer, and the 16 best the vector environment offers). Medians of 3
//! rounds. One-core figures are also given per second of this thread's CPU time (Linux
//! `schedstat`), which a busy shared machine disturbs far less than the wall clock.

use _core::maubinh::eval::class5_of_row;
use _core::maubinh::solver::{best_arrangement, ranked_arrangements, Objective};
use _core::maubinh::Evaluator;
use _core::maubinh::{Rules, Wheel};
use _core::rng::Rng;
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (0 where the kernel does not say).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Units per second of wall time and of CPU time of `f` doing `units`.
fn timed(units: f64, f: impl FnOnce()) -> (f64, f64) {
    let (t, c) = (Instant::now(), cpu_ns());
    f();
    let cpu = (cpu_ns() - c) as f64 / 1e9;
    (
        units / t.elapsed().as_secs_f64(),
        if cpu > 0.0 { units / cpu } else { f64::NAN },
    )
}

fn median2(mut f: impl FnMut() -> (f64, f64)) -> (f64, f64) {
    let v: Vec<(f64, f64)> = (0..3).map(|_| f()).collect();
    let mid = |mut x: Vec<f64>| {
        x.sort_by(f64::total_cmp);
        x[1]
    };
    (
        mid(v.iter().map(|p| p.0).collect()),
        mid(v.iter().map(|p| p.1).collect()),
    )
}

fn median(mut f: impl FnMut() -> f64) -> f64 {
    let mut v: Vec<f64> = (0..3).map(|_| f()).collect();
    v.sort_by(f64::total_cmp);
    v[1]
}

fn main() {
    let mut rng = Rng::from_key([5; 32]);
    let n = 2_000_000;
    let mut rows = Vec::with_capacity(5 * n);
    for _ in 0..n {
        rows.extend(rng.permutation(52)[..5].iter().map(|&c| c as u8));
    }
    let ev = Evaluator::get(Wheel::Second);
    let one = median2(|| {
        timed(n as f64, || {
            let s: u64 = rows
                .chunks_exact(5)
                .map(|r| class5_of_row(r, ev).map_or(0, u64::from))
                .sum();
            black_box(s);
        })
    });
    let all = median(|| {
        let t = Instant::now();
        let mut out = Vec::with_capacity(n);
        rows.par_chunks_exact(5)
            .with_min_len(1 << 14)
            .map(|r| class5_of_row(r, ev).map_or(-1, i32::from))
            .collect_into_vec(&mut out);
        black_box(out);
        n as f64 / t.elapsed().as_secs_f64()
    });
    println!(
        "hand_ranks kernel, one core          {:>14.0} hands/s ({:.0} per CPU second)",
        one.0, one.1
    );
    println!(
        "hand_ranks kernel, {} threads          {:>14.0} hands/s",
        rayon::current_num_threads(),
        all
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let rules = Rules::default();
    let hands: Vec<u64> = (0..3000)
        .map(|_| rng.permutation(52)[..13].iter().map(|&c| 1u64 << c).sum())
        .collect();
    for (name, obj) in [
        ("expected", Objective::Expected),
        ("equilibrium", Objective::Equilibrium),
        ("strongest", Objective::Strongest),
    ] {
        let (wall, cpu) = median2(|| {
            timed(hands.len() as f64, || {
                for &h in &hands {
                    black_box(best_arrangement(h, &rules, obj).unwrap());
                }
            })
        });
        println!(
            "best_arrangement({name:?}), one core   {:>10.1} µs/hand ({:.1} µs of CPU)",
            1e6 / wall,
            1e6 / cpu
        );
    }
    // The vector environment's legal list: a seat's 16 best arrangements, once per deal.
    let (wall, cpu) = median2(|| {
        timed(hands.len() as f64, || {
            for &h in &hands {
                black_box(ranked_arrangements(h, &rules, Objective::Expected, 16).unwrap());
            }
        })
    });
    println!(
        "ranked_arrangements(16), one core    {:>10.1} µs/hand ({:.1} µs of CPU)",
        1e6 / wall,
        1e6 / cpu
    );
}
