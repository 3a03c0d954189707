/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The entry points Wireshark's plugin loader looks for (4.0: plugin_version,
 * plugin_want_major/minor, plugin_register); everything else is in
 * dissect.c, analysis.c and stats.c. */
#include <ws_version.h>

#include <epan/packet.h>
#include <epan/proto.h>

void proto_register_rocewire(void);
void proto_reg_handoff_rocewire(void);

WS_DLL_PUBLIC_DEF const char plugin_version[] = RWP_VERSION;
/* A plugin is refused by any other major.minor than the one it was built
 * against. */
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
	static proto_plugin plug;
	plug.register_protoinfo = proto_register_rocewire;
	plug.register_handoff = proto_reg_handoff_rocewire;
	proto_register_plugin(&plug);
}
