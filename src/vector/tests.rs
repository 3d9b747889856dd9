use super::shedding::SheddingTable;
use super::*;
use crate::family::{rules, FlowRules};

fn tienlen_rules() -> FlowRules {
    rules(crate::tienlen::flow::rules(false))
}

fn samloc_rules() -> FlowRules {
    rules(crate::samloc::flow::rules())
}

fn batch(rules: FlowRules, players: usize, n: usize) -> Batch<SheddingTable> {
    let mut b = Batch::new(SheddingTable::new(rules, players).unwrap(), n, 100_000);
    b.reseed(&(0..n as u64).collect::<Vec<_>>());
    for i in 0..n {
        let seeds: Vec<u64> = (0..256).map(|k| (i as u64) << 20 | k).collect();
        b.add_seeds(i, &seeds);
    }
    b
}

#[test]
fn prefix_masks_follow_the_counts() {
    let mut m = [0u8; 4];
    for (old, new) in [(0, 13), (13, 3), (3, 32), (32, 0), (0, 8), (8, 9), (9, 1)] {
        set_prefix(&mut m, old, new);
        let ones: usize = m.iter().map(|b| b.count_ones() as usize).sum();
        assert_eq!(ones, new);
        for bit in 0..32 {
            assert_eq!(
                m[bit / 8] >> (bit % 8) & 1 == 1,
                bit < new,
                "{old}->{new} bit {bit}"
            );
        }
    }
}

#[test]
#[allow(clippy::needless_range_loop)] // rows of several buffers per table
fn random_steps_settle_hands_that_sum_to_zero() {
    for (rules, players) in [
        (tienlen_rules(), 4),
        (samloc_rules(), 5),
        (tienlen_rules(), 2),
    ] {
        let mut b = batch(rules, players, 40);
        let mut out = Outputs::new(&b);
        b.reset(&mut out.rows());
        let mut actions = vec![0i64; b.len()];
        let mut ended = 0;
        let mut was_done = vec![false; b.len()];
        for _ in 0..600 {
            b.sample(&mut actions);
            assert!(b.check_actions(&actions).is_ok());
            b.step(&actions, &mut out.rows());
            for i in 0..b.len() {
                let r = &out.rewards[i * players..(i + 1) * players];
                assert_eq!(r.iter().sum::<f32>(), 0.0);
                if was_done[i] {
                    // The step after a hand's end deals the next: nothing is paid, it goes on.
                    assert!(!out.terminated[i] && r.iter().all(|&x| x == 0.0));
                }
                if out.terminated[i] {
                    ended += 1;
                    assert_eq!(out.num_actions[i], 0);
                } else {
                    assert!(
                        out.num_actions[i] > 0 || b.slots[i].waiting,
                        "table {i}: {:?} trunc {}",
                        b.slots[i].game.flow(),
                        out.truncated[i]
                    );
                }
                let ones: i64 = out.mask[i * b.mask_bytes()..(i + 1) * b.mask_bytes()]
                    .iter()
                    .map(|x| i64::from(x.count_ones() as u8))
                    .sum();
                assert_eq!(ones, out.num_actions[i]);
                let d = &out.deal_rewards[i * players..(i + 1) * players];
                assert_eq!(d.iter().sum::<f32>(), 0.0);
                was_done[i] = out.terminated[i] || out.truncated[i];
            }
        }
        assert!(ended > 40, "hands end ({ended})");
        assert!(b.check_actions(&vec![-1; b.len()]).is_err());
    }
}

#[test]
fn a_table_runs_out_of_seeds_and_waits() {
    let mut b = Batch::new(SheddingTable::new(tienlen_rules(), 4).unwrap(), 3, 100_000);
    b.reseed(&[1, 2, 3]);
    b.add_seeds(0, &[7]);
    let mut out = Outputs::new(&b);
    b.reset(&mut out.rows());
    assert_eq!(b.seeds_low(1), vec![0, 1, 2]);
    assert!(b.slots[1].waiting && b.slots[2].waiting);
    b.add_seeds(1, &[8, 9]);
    b.add_seeds(2, &[10]);
    b.finish_resets(&mut out.rows());
    assert!(!b.slots[1].waiting && out.num_actions[1] > 0);
    assert_eq!(b.slots[1].hand_seed, 8);
}

#[test]
fn truncation_after_max_cycles() {
    let mut b = Batch::new(SheddingTable::new(tienlen_rules(), 4).unwrap(), 2, 3);
    b.reseed(&[1, 2]);
    b.add_seeds(0, &[1, 2, 3, 4, 5, 6]);
    b.add_seeds(1, &[11, 12, 13, 14, 15, 16]);
    let mut out = Outputs::new(&b);
    b.reset(&mut out.rows());
    let mut a = vec![0i64; 2];
    for step in 1..=4 {
        b.sample(&mut a);
        b.step(&a, &mut out.rows());
        if step == 3 {
            assert!(out
                .truncated
                .iter()
                .zip(&out.terminated)
                .all(|(&t, &e)| t || e));
        }
    }
    assert!(!out.truncated[0] && !out.truncated[1]);
}
