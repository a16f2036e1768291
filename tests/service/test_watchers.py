"""A watcher's mailbox keeps only the newest view: a slow client skips stale ones."""

from __future__ import annotations

import asyncio

from scorekeeper.service.watchers import Subscriber, fanout


def test_a_slow_client_gets_only_the_newest_view_and_never_an_older_one() -> None:
    async def scenario() -> None:
        sub = Subscriber("t1", "public")
        for version in range(1, 10):
            fanout([(version, f"view {version}", [sub])])
        assert await asyncio.wait_for(sub.next(), 1) == "view 9"
        sub.offer(5, "view 5")  # a late, older view is ignored
        waiting = asyncio.ensure_future(sub.next())
        await asyncio.sleep(0)
        assert not waiting.done()  # nothing newer than what was returned
        sub.offer(10, "view 10")
        assert await asyncio.wait_for(waiting, 1) == "view 10"

    asyncio.run(scenario())


def test_every_subscriber_of_a_batch_is_offered_its_audiences_view() -> None:
    async def scenario() -> None:
        public, seat = Subscriber("t1", "public"), Subscriber("t1", 0)
        fanout([(3, "public view", [public]), (3, "seat view", [seat])])
        assert await asyncio.wait_for(public.next(), 1) == "public view"
        assert await asyncio.wait_for(seat.next(), 1) == "seat view"

    asyncio.run(scenario())
