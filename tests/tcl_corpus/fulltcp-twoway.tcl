# Two-way FullTcp: an FTP on each side of one connection. The listening
# side starts its transfer while the other side's is under way, so data
# segments carry the ACKs of the other direction (ns-2 types every packet
# of the listening side `ack`, data or not). A slow middle link drops
# packets both ways; the left side closes, the right one follows. The
# trace shows the TCP headers: the ACK numbers data segments carry.
Trace set show_tcphdr_ 1
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 800Kb 30ms DropTail
$ns queue-limit $n1 $n2 6
$ns queue-limit $n2 $n1 6

Agent/TCP/FullTcp set segsize_ 960
set left [new Agent/TCP/FullTcp]
set right [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $left
$ns attach-agent $n2 $right
$ns connect $left $right
$right listen
set ftp0 [new Application/FTP]
$ftp0 attach-agent $left
set ftp1 [new Application/FTP]
$ftp1 attach-agent $right

proc show {t} {
    global left right
    puts "at $t: left ack [$left set ack_] maxseq [$left set maxseq_]\
        right ack [$right set ack_] maxseq [$right set maxseq_]"
}
$ns at 0.1 "$ftp0 send 150000"
$ns at 0.4 "$ftp1 send 90000"
foreach t {0.5 1.0 2.0 3.0} { $ns at $t "show $t" }
$ns at 4.0 "$left close"
$ns at 4.5 "show 4.5"
$ns at 5.0 "close $tf; exit 0"
$ns run
