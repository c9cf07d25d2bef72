/* repo.h - everything onlist reads out of a git repository, for the
 * callers that want all of it: the commit scan (repo_scan.h), public-inbox
 * epochs (pi_epoch.h), landings, mailmap and files (landing.h).  New code
 * includes the one it needs; git itself is started only by git.h.
 */
#ifndef ONLIST_REPO_H
#define ONLIST_REPO_H

#include "onlist/repo_scan.h"
#include "onlist/pi_epoch.h"
#include "onlist/landing.h"

#endif
