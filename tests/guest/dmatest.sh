#!/bin/sh
# dmatest.sh [ITERATIONS [THREADS]]: Linux's dmatest on every memcpy-capable
# DMA channel (the EDMA's), with verification, and at least one channel
# reporting ITERATIONS x THREADS tests and no failure.
set -u
iterations=${1:-50}
threads=${2:-2}
p=/sys/module/dmatest/parameters
[ -d $p ] || { echo "dmatest: module not loaded"; exit 1; }
echo 5000 >$p/timeout
echo $iterations >$p/iterations
echo $threads >$p/threads_per_chan
echo 0 >$p/noverify
echo "" >$p/channel
dmesg -c >/dev/null
echo 1 >$p/run
cat $p/wait >/dev/null
dmesg | grep 'dmatest' | tail -20
# "dma0chan20-copy0: summary 50 tests, 0 failures 1234.56 iops ..."
summaries=$(dmesg | grep -c 'summary [0-9]* tests, 0 failures')
failed=$(dmesg | grep 'summary' | grep -vc ', 0 failures')
expected=$(dmesg | grep -c "summary $iterations tests, 0 failures")
echo "dmatest: $summaries threads passed, $failed failed"
[ "$failed" = 0 ] && [ "$expected" -ge "$threads" ]
