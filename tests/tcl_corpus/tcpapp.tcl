# Application/TcpApp over FullTcp: a client sends requests, the server's
# callback answers each with a response on the same connection, and the
# first response's callback sends the next request; every message's code
# prints when its last byte has arrived in order. (Messages fit in one
# segment: ackclock's FullTcp has neither Nagle nor ns-2's window growth.)
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail

set client [new Agent/TCP/FullTcp]
set server [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $client
$ns attach-agent $n2 $server
$ns connect $client $server
$server listen

set app0 [new Application/TcpApp $client]
set app1 [new Application/TcpApp $server]
$app0 connect $app1

proc request {n bytes} {
    global ns app1
    puts [format "%.6f server got request %d" [$ns now] $n]
    $app1 send $bytes "response $n"
}
proc response {n} {
    global ns app0
    puts [format "%.6f client got response %d" [$ns now] $n]
    if {$n == 1} {
        $app0 send 400 {request 2 500}
    }
}

$ns at 0.1 "$app0 send 500 {request 1 300}"
$ns at 1.0 "$app0 send 100 {request 3 100}"
$ns at 3.0 "finish"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns run
