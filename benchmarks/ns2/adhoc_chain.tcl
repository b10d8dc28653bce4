# Three static 802.11 nodes 200 m apart (each hears only its neighbours),
# routing given as the first argument (AODV or DSDV), CBR of 64-byte packets
# every 0.5 s from node 0 to node 2 from 0.5 s to 99 s. docs/aodv.md and
# docs/dsdv.md read its trace (adhoc_chain.tr):
#   ns adhoc_chain.tcl AODV [seed]; ns adhoc_chain.tcl DSDV [seed]
set ns [new Simulator]
if {[llength $argv] > 1} { $defaultRNG seed [lindex $argv 1] }
$ns use-newtrace
set tracefd [open adhoc_chain.tr w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 1000 300
create-god 3
set chan1 [new Channel/WirelessChannel]
$ns node-config -adhocRouting [lindex $argv 0] -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan1 \
  -topoInstance $topo -wiredRouting OFF -agentTrace ON -routerTrace ON -macTrace OFF
for {set i 0} {$i < 3} {incr i} {
    set n($i) [$ns node]
    $n($i) set X_ [expr $i * 200]
    $n($i) set Y_ 50
    $n($i) set Z_ 0
}
set udp [new Agent/UDP]
set null [new Agent/Null]
$ns attach-agent $n(0) $udp
$ns attach-agent $n(2) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 64
$cbr set interval_ 0.5
$cbr attach-agent $udp
$ns at 0.5 "$cbr start"
$ns at 99 "$cbr stop"
$ns at 100 "$ns halt"
$ns run
