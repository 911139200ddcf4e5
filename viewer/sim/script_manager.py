"""ScriptManager: one serial FIFO of PhysicsScripts per owner (docs/retail-rules.md,
Scripts).

* ``AddScriptInternal`` 0x0051B310: a node starts at ``tail.start + tail.script.length``
  (or the current time when the queue is empty); duplicates are allowed.
* ``NextHook`` 0x0051B3F0 / ``UpdateScripts`` 0x0051B480: every hook whose time has come
  fires in the same update, in the script's sorted order; a finished head is popped and
  the next node's first hook time takes over. An entry whose hook retail never built
  (a stored type 4 or unknown type: NULL after UnPackHook) is returned by NextHook like any
  other and ends its script there: the head is popped, its later hooks never fire, and
  the next node keeps the start time AddScriptInternal gave it.

Hooks are executed through a callback so the owner (``PhysicsObj``) applies them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from viewer.dat.records.hooks import is_null_hook


def _no_event(event: dict) -> None:
    return None


@dataclass
class ScriptNode:
    """ScriptManager's ScriptData: one queued play of a script."""

    script: object  # a PhysicsScript record (script_data sorted, length)
    did: int
    start: float
    started: bool = False


class ScriptManager:
    def __init__(self, owner_id: int, execute: Callable[[object, int, int], None],
                 emit: Callable[[dict], None] | None = None) -> None:
        self.owner_id = owner_id
        self._execute = execute  # (hook, script_did, hook_index)
        self._emit = emit if emit is not None else _no_event
        self.queue: list[ScriptNode] = []
        self.hook_index = -1
        self.next_hook_time = -1.0

    def __len__(self) -> int:
        return len(self.queue)

    def add_script(self, script, did: int, now: float) -> ScriptNode:
        """ScriptManager::AddScriptInternal 0x0051B310."""
        if self.queue:
            tail = self.queue[-1]
            start = tail.start + float(tail.script.length)
        else:
            start = now
        node = ScriptNode(script, did, start)
        self.queue.append(node)
        self._emit({"event": "script", "action": "queued", "owner": self.owner_id,
                    "script": did, "start": start})
        if len(self.queue) == 1:
            self.hook_index = -1
            self.next_hook_time = start + self._first_time(node)
        return node

    @staticmethod
    def _first_time(node: ScriptNode) -> float:
        data = node.script.script_data
        # An empty script reads entry 0 in retail (undefined); we treat it as time 0.
        return float(data[0].start_time) if data else 0.0

    def _next_hook(self):
        """ScriptManager::NextHook 0x0051B3F0: the head's next hook, or None when done or
        when the entry's hook is NULL (next_hook_time is advanced either way)."""
        self.hook_index += 1
        head = self.queue[0]
        data = head.script.script_data
        if self.hook_index >= len(data):
            return None
        if self.hook_index + 1 < len(data):
            self.next_hook_time = head.start + float(data[self.hook_index + 1].start_time)
        elif len(self.queue) > 1:
            nxt = self.queue[1]
            self.next_hook_time = nxt.start + self._first_time(nxt)
        else:
            self.next_hook_time = -1.0
        hook = data[self.hook_index].hook
        return None if is_null_hook(hook) else hook

    def update_scripts(self, now: float) -> None:
        """ScriptManager::UpdateScripts 0x0051B480 (Timer.cur_time)."""
        while self.queue and now >= self.next_hook_time:
            head = self.queue[0]
            if not head.started:
                head.started = True
                self._emit({"event": "script", "action": "started", "owner": self.owner_id,
                            "script": head.did})
            hook = self._next_hook()
            if hook is not None:
                self._execute(hook, head.did, self.hook_index)
                continue
            self.queue.pop(0)
            self._emit({"event": "script", "action": "finished", "owner": self.owner_id,
                        "script": head.did})
            self.hook_index = -1
            self.next_hook_time = (self.queue[0].start + self._first_time(self.queue[0])
                                   if self.queue else -1.0)

    def clear(self) -> None:
        self.queue.clear()
        self.hook_index = -1
        self.next_hook_time = -1.0
