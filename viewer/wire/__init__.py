"""Asheron's Call network codecs and packet-capture replay (``vfxviewer replay``, docs/cli.md).

Modules, bottom up (none imports sim, dat, GL or ImGui):

* ``reader``    bounded little-endian cursor / writer (WireError with the offset)
* ``capture``   pcap (dpkt) and pcapng records; link, IPv4 and UDP layers; direction
* ``transport`` packet header, optional sections by size, fragments, reassembly
* ``motion``    InterpretedMotionState, RawMotionState (+ retail packer), MovementBody
* ``descs``     ObjDesc, PhysicsDesc, PublicWeenieDesc of a CreateObject
* ``messages``  the typed, presence-keeping messages and ``decode_message``
* ``client``    seed-004 outbound packers: MoveToState, Jump, AutonomousPosition
* ``pipeline``  capture file -> time-ordered decoded messages, with counters
* ``smartbox``  the object-event layer (generations, stamp gates, queues) -> decisions
* ``replay``    JSON lines, readable lines, scenario events and a playable scenario
"""
