# Two-way TCP (FullTcp): a listening server, a client that sends a fixed
# amount with FTP's send and closes, as ns-2's FullTcp tests do.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set c [$ns node]
set r [$ns node]
set s [$ns node]
$ns duplex-link $c $r 10Mb 5ms DropTail
$ns duplex-link $r $s 1Mb 25ms DropTail
$ns queue-limit $r $s 8

Agent/TCP/FullTcp set segsize_ 1000
set client [new Agent/TCP/FullTcp]
set server [new Agent/TCP/FullTcp]
$ns attach-agent $c $client
$ns attach-agent $s $server
$ns connect $client $server
$server listen
set ftp [new Application/FTP]
$ftp attach-agent $client
$ns at 0.5 "$ftp send 200000"
proc show {t} { global client; puts "at $t: ack [$client set ack_] maxseq [$client set maxseq_]" }
foreach t {0.6 0.7 1.0 4.5} { $ns at $t "show $t" }
$ns at 4.0 "$client close"

proc finish {} {
    global client tf
    puts "done: ack [$client set ack_] maxseq [$client set maxseq_] packets [$client set ndatapack_]"
    close $tf
    exit 0
}
$ns at 6.0 "finish"
$ns run
