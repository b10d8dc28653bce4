# Four ns-2 2.35 802.11 stations on a 50 m circle saturating a fifth at its
# centre (512-byte CBR every 5 ms each, all in range of one another), for
# crates/ackclock-net/src/mac80211.rs's contention test: packets delivered
# and RTS/CTS sent between 1 s and 11 s.
#   ns benchmarks/ns2/mac80211_saturation.tcl <seed>   (writes mac80211_saturation.tr)
set ns [new Simulator]
ns-random [lindex $argv 0]
set tr [open mac80211_saturation.tr w]
$ns trace-all $tr
set topo [new Topography]
$topo load_flatgrid 500 500
create-god 5
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel [new Channel/WirelessChannel] -topoInstance $topo \
    -agentTrace ON -routerTrace OFF -macTrace ON -movementTrace OFF
set sink [$ns node]
$sink set X_ 200.0; $sink set Y_ 200.0; $sink set Z_ 0.0
foreach i {1 2 3 4} x {250.0 200.0 150.0 200.0} y {200.0 250.0 200.0 150.0} {
    set n($i) [$ns node]
    $n($i) set X_ $x; $n($i) set Y_ $y; $n($i) set Z_ 0.0
    set udp [new Agent/UDP]
    $ns attach-agent $n($i) $udp
    set null [new Agent/Null]
    $ns attach-agent $sink $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $udp
    $cbr set packetSize_ 512
    $cbr set interval_ 0.005
    $ns at [expr 0.5 + 0.01 * $i] "$cbr start"
}
$ns at 11.0 "$ns halt"
$ns run
