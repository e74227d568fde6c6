#!/bin/sh
# Clean probe: every enabled ti-sysc target-module of the running device tree
# is bound to a driver, nothing is left deferred, and the kernel log has no
# probe failure, time-out or oops.  Prints one line per problem; exits 1 if
# there was any.
#
#   probe-clean.sh [UNMODELLED]
#
# UNMODELLED is an extended regex of the devices whose blocks the emulator
# does not model yet (or board parts it leaves absent); their log lines and
# deferrals are reported as "known" and do not fail the test.
unmodelled=${1:-}
bad=0
problem() {
    if [ -n "$unmodelled" ] && echo "$*" | grep -qE "$unmodelled"; then
        echo "known (not modelled yet): $*"
    else
        echo "PROBLEM: $*"
        bad=1
    fi
}

dt=/sys/firmware/devicetree/base
# Map each platform device's DT node to whether a driver bound it.
bound=/tmp/probe-bound.$$
for dev in /sys/bus/platform/devices/*; do
    [ -e "$dev/of_node" ] || continue
    node=$(readlink -f "$dev/of_node")
    if [ -e "$dev/driver" ]; then
        echo "$node bound" >>"$bound"
    else
        echo "$node unbound" >>"$bound"
    fi
done

enabled() { # a node and all its ancestors are not status = "disabled"
    n=$1
    while [ "$n" != "$dt" ] && [ -n "$n" ]; do
        if [ -f "$n/status" ]; then
            case "$(tr -d '\0' <"$n/status")" in
                okay|ok) ;;
                *) return 1 ;;
            esac
        fi
        n=${n%/*}
    done
    return 0
}

modules=0
for node in $(find "$dt" -type d -name 'target-module@*'); do
    grep -q 'ti,sysc' "$node/compatible" 2>/dev/null || continue
    enabled "$node" || continue
    modules=$((modules + 1))
    state=$(grep "^$node " "$bound" | cut -d' ' -f2)
    case "$state" in
        bound) ;;
        unbound) problem "target-module not bound: ${node#$dt}" ;;
        *) problem "target-module has no device: ${node#$dt}" ;;
    esac
done
rm -f "$bound"
echo "checked $modules enabled target-modules"
[ "$modules" -gt 0 ] || problem "no enabled target-module found in the device tree"

if [ -r /sys/kernel/debug/devices_deferred ]; then
    while read -r line; do
        problem "deferred: $line"
    done </sys/kernel/debug/devices_deferred
else
    problem "no /sys/kernel/debug/devices_deferred (debugfs not mounted?)"
fi

# fw_devlink's "Failed to create device link ... with ocp" for the two
# system timers is printed on real boards too: it is not a probe problem.
log=/tmp/probe-log.$$
dmesg | grep -E 'probe of .* failed|deferred probe pending|timed out|Internal error: Oops|BUG:|Unable to handle|ti-sysc.*(error|fail)|failed to (enable|disable|reset)' |
    grep -v 'Failed to create device link' >"$log"
while read -r line; do
    problem "log: $line"
done <"$log"
rm -f "$log"

exit $bad
