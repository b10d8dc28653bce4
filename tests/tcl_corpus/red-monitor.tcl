# Three Reno flows through a RED bottleneck with the classic parameters set
# as ns-2's RED test suite sets them, a queue monitor on the bottleneck and
# a flow monitor dump at the end.
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10

set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 10Mb 2ms DropTail
$ns duplex-link $r $d 1.5Mb 20ms RED
$ns queue-limit $r $d 25

for {set i 1} {$i <= 3} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 50
    $ns attach-agent $s $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr {0.2 * $i}] "$ftp($i) start"
}

set qmon [$ns monitor-queue $r $d [open /dev/null w] 0.1]
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $r $d] $fmon
set ff [open flows.out w]
$fmon attach $ff

proc finish {} {
    global ns tf qmon fmon ff
    puts "arrivals [$qmon set parrivals_] [$qmon set barrivals_]"
    puts "departures [$qmon set pdepartures_] [$qmon set bdepartures_]"
    puts "drops [$qmon set pdrops_] [$qmon set bdrops_]"
    $fmon dump
    close $ff
    close $tf
    exit 0
}
$ns at 20.0 "finish"
$ns run
