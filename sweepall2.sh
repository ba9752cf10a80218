#!/bin/bash
cd /tmp/s37/cells
mkdir -p sweeps2
P=GEO-rainfade,LTE-handovers,stadium-wifi,GPRS-bloat-600k,asym-7k-up,3G-RRC-wakeup,GE-long-bursts-40,flapping-cell,NB-IoT-deep,2G-rural,GPRS,EDGE,EDGE-lossy,3G,4G,WiFi
grep -v slow catalog.txt | while read name tags; do
  timeout 300 nice -n 10 /tmp/s37/bin/syncsim sweep $name --link-profiles cells.json --profiles $P --seeds 5 --seed-base 47200000 --jobs 1 > sweeps2/$name.out 2> sweeps2/$name.err
  echo "$name rc=$?" >> sweeps2/index.txt
done
echo done >> sweeps2/index.txt
