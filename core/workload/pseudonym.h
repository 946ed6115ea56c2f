#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Consistent pseudonyms for anonymised workloads: a keyed hash (SipHash-2-4) with a key drawn at random for each
// save, so the same value gets the same token within a workload (skew and repeats survive) while no table of
// values is kept and tokens of two saves cannot be matched. Tokens are a prefix and 13 base-32 characters
// (64 bits): "v" values, "c" client addresses.
class Pseudonymizer
{
public:
    Pseudonymizer(); // a random key
    Pseudonymizer(uint64_t k0, uint64_t k1); // a fixed key (tests)

    std::string token(std::string_view value, char prefix = 'v') const;
    // A token stretched (or cut) to `length` characters: write values keep their logged sizes.
    std::string sized(std::string_view value, size_t length) const;
    // A DN's attribute values replaced by their tokens, types kept, except the structure's (dc, o, ou, c, l, st):
    // "uid=v…,ou=people,dc=example,dc=com"; a DN of one RDN (the root DN, cn=monitor) is kept as it is.
    std::string dn(std::string_view dn) const;

    uint64_t hash(std::string_view value) const;

private:
    uint64_t m_k0, m_k1;
};
