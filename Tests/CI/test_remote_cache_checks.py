#!/usr/bin/env python3
"""The checks of .ci/remote-cache on hand-made report.json files: each passes a report as the
scenario wants it and names what is wrong in one that is not. .ci/remote-cache runs these first.

    python3 Tests/CI/test_remote_cache_checks.py
"""

import hashlib
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".ci"))
import remote_cache_checks as checks  # noqa: E402

TARGETS = ["AsyncFetchStep01", "AsyncFetchStep01FR", "AsyncFetchStep02", "AsyncFetchStep02FR"]


def report(cache=None, skipped=(), shard=None, stored=0, notices=(), succeeded=True):
    """A report.json of one tutorial in two languages whose steps are TARGETS. `cache` is a
    target's cache value or a function of the target giving it; targets in `skipped` are skipped."""
    where = cache if callable(cache) else (lambda target: cache)

    def step(target):
        entry = {"target": target, "status": "verified", "cached": where(target) is not None, "cache": where(target)}
        if target in skipped:
            entry.update(status="skipped", cached=False, cache=None, skipped="shard")
        return entry

    languages = [
        {
            "language": language,
            "steps": [step(target) for target in TARGETS if target.endswith("FR") == (language == "fr")],
        }
        for language in ("de", "fr")
    ]
    return {
        "succeeded": succeeded,
        "shard": shard,
        "remoteCache": {
            "url": "http://127.0.0.1:1/cache",
            "readOnly": False,
            "fetched": 0,
            "stored": stored,
            "notices": list(notices),
        },
        "tutorials": [{"id": "async-fetch", "languages": languages}],
    }


def shard(index, mine, stored=2):
    return report(
        skipped=[target for target in TARGETS if target not in mine], shard={"index": index, "count": 2}, stored=stored
    )


class ShardsTests(unittest.TestCase):
    def test_disjoint_shards_covering_every_target_pass(self):
        self.assertEqual(checks.check_shards(shard(1, TARGETS[:1]), shard(2, TARGETS[1:])), [])

    def test_a_target_verified_by_both_shards_fails(self):
        problems = checks.check_shards(shard(1, TARGETS[:2]), shard(2, TARGETS[1:]))
        self.assertTrue(
            any("verified by both shards" in problem and TARGETS[1] in problem for problem in problems), problems
        )

    def test_a_target_verified_by_neither_shard_fails(self):
        problems = checks.check_shards(shard(1, TARGETS[:1]), shard(2, TARGETS[2:]))
        self.assertTrue(
            any("verified by neither shard" in problem and TARGETS[1] in problem for problem in problems), problems
        )

    def test_a_shard_that_stored_nothing_fails(self):
        problems = checks.check_shards(shard(1, TARGETS[:1], stored=0), shard(2, TARGETS[1:]))
        self.assertTrue(any("stored nothing" in problem for problem in problems), problems)


class CachedOnlyTests(unittest.TestCase):
    def test_every_step_from_the_remote_cache_passes(self):
        self.assertEqual(checks.check_cached_only(report(cache="remote")), [])

    def test_a_step_verified_in_the_run_fails(self):
        problems = checks.check_cached_only(report(cache=lambda target: None if target == TARGETS[0] else "remote"))
        self.assertTrue(any(TARGETS[0] in problem for problem in problems), problems)


class CorruptTests(unittest.TestCase):
    corrupt = lambda self, target: None if target == TARGETS[2] else "remote"  # noqa: E731
    notice = f"{TARGETS[2]}: the remote cache's entry is unusable (blob sha256 mismatch); verified again"

    def test_exactly_the_corrupt_target_verified_again_and_said_passes(self):
        problems = checks.check_corrupt(
            report(cache=self.corrupt, notices=[self.notice]), f"warning: {self.notice}\n", TARGETS[2]
        )
        self.assertEqual(problems, [])

    def test_another_target_verified_again_fails(self):
        cache = lambda target: None if target in TARGETS[1:3] else "remote"  # noqa: E731
        problems = checks.check_corrupt(report(cache=cache, notices=[self.notice]), self.notice, TARGETS[2])
        self.assertTrue(any("verified again" in problem for problem in problems), problems)

    def test_silence_about_the_corrupt_entry_fails(self):
        problems = checks.check_corrupt(report(cache=self.corrupt), "", TARGETS[2])
        self.assertEqual(len(problems), 2, problems)

    def test_a_notice_that_names_the_target_but_not_why_fails(self):
        notice = f"{TARGETS[2]}: verified again"
        problems = checks.check_corrupt(report(cache=self.corrupt, notices=[notice]), notice, TARGETS[2])
        self.assertEqual(len(problems), 2, problems)


class OfflineTests(unittest.TestCase):
    notice = "the remote cache at http://127.0.0.1:1/cache is unavailable (connection refused); using the local cache"
    edited = lambda self, target: None if target == TARGETS[0] else "local"  # noqa: E731

    def test_one_warning_the_edited_step_verified_and_the_rest_local_passes(self):
        output = f"{self.notice}\nVerified 4 step targets: 3 from the local cache\n"
        problems = checks.check_offline(report(cache=self.edited, notices=[self.notice]), output, "127.0.0.1:1")
        self.assertEqual(problems, [])

    def test_a_warning_per_request_fails(self):
        output = f"{self.notice}\n{self.notice}\n"
        problems = checks.check_offline(report(cache=self.edited, notices=[self.notice]), output, "127.0.0.1:1")
        self.assertTrue(any("2 lines of output" in problem for problem in problems), problems)

    def test_a_run_that_never_needed_the_server_fails(self):
        problems = checks.check_offline(report(cache="local", notices=[self.notice]), self.notice, "127.0.0.1:1")
        self.assertTrue(any("never needed the server" in problem for problem in problems), problems)

    def test_a_step_from_the_stopped_server_fails(self):
        cache = lambda target: "remote" if target == TARGETS[1] else self.edited(target)  # noqa: E731
        problems = checks.check_offline(report(cache=cache, notices=[self.notice]), self.notice, "127.0.0.1:1")
        self.assertTrue(any(TARGETS[1] in problem for problem in problems), problems)


class RefusedTests(unittest.TestCase):
    notice = "the remote cache refused to store (HTTP 401): the result was not shared"

    def test_refused_and_said_passes(self):
        cache = lambda target: None if target == TARGETS[0] else "remote"  # noqa: E731
        self.assertEqual(checks.check_refused(report(cache=cache, notices=[self.notice]), self.notice), [])

    def test_a_stored_entry_without_credentials_fails(self):
        cache = lambda target: None if target == TARGETS[0] else "remote"  # noqa: E731
        problems = checks.check_refused(report(cache=cache, stored=1, notices=[self.notice]), self.notice)
        self.assertTrue(any("without credentials" in problem for problem in problems), problems)


class DecodedTests(unittest.TestCase):
    def test_a_digest_whose_blob_is_in_cas_passes_and_a_missing_one_fails(self):
        blob = b'{"target": "AsyncFetchStep01"}'
        digest = hashlib.sha256(blob).hexdigest()
        text = (
            'output_files {\n  path: "stepwise/verification.json"\n'
            f'  digest {{\n    hash: "{digest}"\n    size_bytes: {len(blob)}\n  }}\n}}\n'
        )
        with tempfile.TemporaryDirectory() as cas:
            self.assertTrue(checks.check_decoded(text, cas))
            with open(os.path.join(cas, digest), "wb") as file:
                file.write(blob)
            self.assertEqual(checks.check_decoded(text, cas), [])

    def test_the_record_to_corrupt_is_a_step_targets_verification_record(self):
        with tempfile.TemporaryDirectory() as cas:
            blobs = (
                ("0" * 64, b"\x00\x01 not a record"),
                ("1" * 64, b'{"target": "AsyncFetchBenchmark", "runs": 1}'),
                ("2" * 64, b'{"target": "AsyncFetchStep02"}'),
            )
            for name, blob in blobs:
                with open(os.path.join(cas, name), "wb") as file:
                    file.write(blob)
            self.assertEqual(checks.record_blob(cas, set(TARGETS)), (os.path.join(cas, "2" * 64), "AsyncFetchStep02"))
            with self.assertRaises(SystemExit):
                checks.record_blob(cas, {"PromisesStep01"})


if __name__ == "__main__":
    unittest.main()
