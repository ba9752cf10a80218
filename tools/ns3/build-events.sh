#!/usr/bin/env bash
# Builds the ns-3 scheduler-speed peer (events.cc) against Debian's libns3-dev (apt-get install libns3-dev) to
# /tmp/ns3-events, where `syncsim-bench kernel` looks for it (or set NS3_EVENTS to another path).
set -e
cd "$(dirname "$0")"
libs=$(ls /usr/lib/x86_64-linux-gnu/libns3-*.so 2>/dev/null | sed -E 's#.*/lib(ns3-[a-z0-9-]+)\.so#-l\1#' | tr '\n' ' ')
g++ -O2 -std=c++17 -I/usr/include events.cc -o /tmp/ns3-events $libs 2>&1 | grep -v warning | head -20
echo /tmp/ns3-events
