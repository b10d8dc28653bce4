# One RTS/CTS/DATA/ACK exchange between two ns-2 2.35 802.11 nodes, 100 m
# apart, for crates/ackclock-net/src/mac80211.rs's timing test. A 512-byte CBR
# packet at 1.0 s (AODV discovery and ARP first) and one at 2.0 s (route and
# ARP resolved: the bare exchange).
#   ns benchmarks/ns2/mac80211_exchange.tcl && grep MAC mac80211_exchange.tr
set val(chan)   Channel/WirelessChannel
set val(prop)   Propagation/TwoRayGround
set val(netif)  Phy/WirelessPhy
set val(mac)    Mac/802_11
set val(ifq)    Queue/DropTail/PriQueue
set val(ll)     LL
set val(ant)    Antenna/OmniAntenna

set ns [new Simulator]
set tr [open mac80211_exchange.tr w]
$ns trace-all $tr
set topo [new Topography]
$topo load_flatgrid 500 500
create-god 2
$ns node-config -adhocRouting AODV -llType $val(ll) -macType $val(mac) \
    -ifqType $val(ifq) -ifqLen 50 -antType $val(ant) -propType $val(prop) \
    -phyType $val(netif) -channel [new $val(chan)] -topoInstance $topo \
    -agentTrace ON -routerTrace ON -macTrace ON -movementTrace OFF
set n0 [$ns node]
set n1 [$ns node]
$n0 set X_ 100.0; $n0 set Y_ 100.0; $n0 set Z_ 0.0
$n1 set X_ 200.0; $n1 set Y_ 100.0; $n1 set Z_ 0.0

set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set sink [new Agent/Null]
$ns attach-agent $n1 $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 512
$cbr set interval_ 1.0
$ns at 1.0 "$cbr start"
$ns at 2.5 "$cbr stop"
$ns at 3.0 "$ns halt"
$ns run
