//! `cargo bench --bench vector_core`: steps per second of the batched environment's core
//! (`_core::vector`) under random legal actions, one thread and every thread (rayon), with the
//! share of one step spent in each part (no criterion: plain timing loops, so it runs offline).

use _core::family::{self, House};
use _core::samloc;
use _core::shedding::flow::FlowRules;
use _core::tienlen;
use _core::tusac::flow::Rules;
use _core::vector::maubinh::MauBinhTable;
use _core::vector::shedding::SheddingTable;
use _core::vector::tusac::TuSacTable;
use _core::vector::{Batch, Game, Outputs};
use std::time::Instant;

fn run<G: Game>(label: &str, table: G, envs: usize, threads: usize) {
    let mut b = Batch::new(table, envs, 100_000);
    b.reseed(&(0..envs as u64).collect::<Vec<_>>());
    for i in 0..envs {
        let seeds: Vec<u64> = (0..4096).map(|k| (i as u64) << 24 | k).collect();
        b.add_seeds(i, &seeds);
    }
    let mut out = Outputs::new(&b);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut actions = vec![0i64; envs];
    pool.install(|| {
        b.reset(&mut out.rows());
        let steps = 300;
        let start = Instant::now();
        for _ in 0..steps {
            b.sample(&mut actions);
            b.step(&actions, &mut out.rows());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{label:<34} {threads} thread(s) {:>12.0} steps/s",
            (steps * envs) as f64 / secs
        );
    });
    let _ = b.slots[0].game.num_actions();
}

fn shedding<V: Into<House> + _core::shedding::Variant>(rules: FlowRules<V>) -> SheddingTable {
    SheddingTable::new(family::rules(rules), 4).unwrap()
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    for threads in [1, cores] {
        let south = shedding(tienlen::flow::rules(false));
        run("tienlen (south), 4 seats, 1024", south, 1024, threads);
        let north = shedding(tienlen::flow::rules(true));
        run("tienlen (north), 4 seats, 1024", north, 1024, threads);
        run(
            "samloc, 4 seats, 1024",
            shedding(samloc::flow::rules()),
            1024,
            threads,
        );
        let tusac = TuSacTable::new(Rules::default(), 4).unwrap();
        run("tusac, 4 seats, 1024", tusac, 1024, threads);
        let maubinh = MauBinhTable::new(Default::default(), 4).unwrap();
        run("maubinh, 4 seats, 1024", maubinh, 1024, threads);
    }
}
