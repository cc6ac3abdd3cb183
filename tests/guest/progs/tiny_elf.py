#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tiny_elf.py KIND OUT - write a one-page static x86-64 ELF executable
with no interpreter (its execve reads nothing but its own first page):
  exit0       calls exit(0);
  past_ponr   its one PT_LOAD segment lies in the kernel's half of the
              address space, which load_elf_binary() finds out only when it
              maps the segment, after begin_new_exec() (de_thread(), the
              new mm): execve fails after the point of no return, returns
              -ENOMEM, and the process dies of SIGSEGV."""
import os
import struct
import sys

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
PHDR = struct.Struct('<IIQQQQQQ')
VADDR = {'exit0': 0x400000, 'past_ponr': 0xFFFF800000000000}
CODE = {
    'exit0': b'\xb8\x3c\x00\x00\x00'   # mov eax, 60 (exit)
             b'\x31\xff'               # xor edi, edi
             b'\x0f\x05',              # syscall
    'past_ponr': b'\x0f\x0b',          # ud2 (never runs)
}

kind, out = sys.argv[1], sys.argv[2]
vaddr = VADDR[kind]
entry = vaddr + EHDR.size + PHDR.size
ehdr = EHDR.pack(b'\x7fELF\x02\x01\x01' + bytes(9),
                 2, 0x3e, 1,            # ET_EXEC, x86-64, version 1
                 entry, EHDR.size, 0,   # entry, phoff, shoff
                 0, EHDR.size, PHDR.size, 1, 64, 0, 0)
phdr = PHDR.pack(1, 5, 0, vaddr, vaddr,  # PT_LOAD, R+X, from offset 0
                 4096, 4096, 4096)
with open(out, 'wb') as f:
    f.write((ehdr + phdr + CODE[kind]).ljust(4096, b'\0'))
os.chmod(out, 0o755)
