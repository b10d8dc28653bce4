# Run under ns-2 (`ns dump_classes.tcl > python/ackclock/tcl/ns2_classes.json`):
# prints every OTcl class ns-2.35 defines, its superclasses and the class
# variables (defaults) it sets, as JSON. ackclock's Tcl front end defines the
# same classes, so that scripts can configure any of them, and knows which
# variables ns-2 has (python/ackclock/tcl/registry.py).
proc json_string {s} {
    return "\"[string map {\\ \\\\ \" \\\" \n \\n \t \\t} $s]\""
}
set classes {}
foreach cls [lsort [Class info instances]] {
    if {[catch {$cls info superclass} supers]} {
        set supers Object
    }
    set vars {}
    foreach var [lsort [$cls info vars]] {
        if {[$cls array exists $var] || [catch {$cls set $var} value]} {
            continue
        }
        lappend vars "[json_string $var]: [json_string $value]"
    }
    set supers [lmap s $supers {json_string $s}]
    lappend classes "[json_string $cls]: {\"super\": \[[join $supers ", "]\], \"vars\": {[join $vars ", "]}}"
}
puts "{\n[join $classes ",\n"]\n}"
