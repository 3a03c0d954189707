/* SPDX-License-Identifier: BSD-3-Clause */
/* Everything in librocewire: every public header. */
#ifndef ROCEWIRE_ROCEWIRE_H
#define ROCEWIRE_ROCEWIRE_H

#include "rocewire/wire.h"
#include "rocewire/error.h"
#include "rocewire/crc.h"
#include "rocewire/eth.h"
#include "rocewire/ipv4.h"
#include "rocewire/ipv6.h"
#include "rocewire/udp.h"
#include "rocewire/lrh.h"
#include "rocewire/grh.h"
#include "rocewire/bth.h"
#include "rocewire/ext.h"
#include "rocewire/mad.h"
#include "rocewire/macctrl.h"
#include "rocewire/link.h"
#include "rocewire/opcode.h"
#include "rocewire/icrc.h"
#include "rocewire/packet.h"
#include "rocewire/fields.h"
#include "rocewire/build.h"
#include "rocewire/tmpl.h"
#include "rocewire/rewrite.h"
#include "rocewire/analyze.h"
#include "rocewire/between.h"

#define ROCEWIRE_VERSION "0.1.0"

#endif
